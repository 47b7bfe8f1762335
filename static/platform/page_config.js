// A page's configuration as data (games/templatetags/page_config.py): the Content-Security-Policy runs no
// inline script, so each `page-config-NAME` JSON element becomes window.NAME here, before any module runs.
for (const node of document.querySelectorAll('script[type="application/json"][id^="page-config-"]')) {
  window[node.id.slice("page-config-".length)] = JSON.parse(node.textContent);
}
