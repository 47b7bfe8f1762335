"""`{% page_config "NAME" %}{ js object literal }{% end_page_config %}`: a page's configuration without an inline script.

The Content-Security-Policy (web/csp.py) runs no inline script (`script-src 'self'`), so a page's
configuration (its words in the page's language, ids, URLs) travels as data: the block, written
as the object literal it always was (unquoted keys, a trailing comma allowed), is rendered,
turned into JSON and emitted as a `json_script` element `page-config-NAME`, followed by
static/platform/page_config.js, which sets `window.NAME` from it before any module runs.
A block that is not a plain object literal fails loudly at render (a test walks every page).
"""

from __future__ import annotations

import json
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html, json_script

register = template.Library()


def js_literal_to_json(text: str) -> Any:
    """A JavaScript object literal of strings, numbers, true/false/null, objects and arrays, as Python data."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif c.isalpha() or c in "_$":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            word, k = text[i:j], j
            while k < n and text[k].isspace():
                k += 1
            out.append(json.dumps(word) if k < n and text[k] == ":" else word)
            i = j
        elif c in "}]":
            while out and (out[-1].isspace() or out[-1] == ","):
                if out.pop() == ",":
                    break
            out.append(c)
            i += 1
        else:
            out.append(c)
            i += 1
    return json.loads("".join(out))


class PageConfigNode(template.Node):
    def __init__(self, name: str, nodelist: template.NodeList) -> None:
        self.name, self.nodelist = name, nodelist

    def render(self, context: template.Context) -> str:
        data = js_literal_to_json(self.nodelist.render(context))
        return format_html(
            '{}\n<script src="{}"></script>', json_script(data, f"page-config-{self.name}"), static("platform/page_config.js")
        )


@register.tag("page_config")
def page_config(parser: template.base.Parser, token: template.base.Token) -> PageConfigNode:
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or not bits[1][1:-1].isidentifier():
        raise template.TemplateSyntaxError('{% page_config "NAME" %} takes the global name in quotes')
    nodelist = parser.parse(("end_page_config",))
    parser.delete_first_token()
    return PageConfigNode(bits[1][1:-1], nodelist)
