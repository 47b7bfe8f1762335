from django.conf import settings
from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.utils import timezone
from django.views.decorators.http import last_modified
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import api as accounts_api
from accounts import settings_views as accounts_settings_views
from accounts.urls import api_urlpatterns as accounts_api_urls
from games.urls import api_urls as games_api_urls
from games.urls import page_urls as games_page_urls
from live import relay_endpoint
from people.urls import api_urlpatterns as people_api_urls
from people.urls import page_urlpatterns as people_page_urls

CATALOGUE_BUILT = timezone.now()  # the .mo files are read once per process

api_patterns = [
    path("auth/register/", accounts_api.RegisterApi.as_view()),
    path("auth/token/", accounts_api.TokenApi.as_view()),
    path("auth/logout/", accounts_api.LogoutApi.as_view()),
    path("me/", accounts_api.MeApi.as_view()),
    *accounts_api_urls,
    *people_api_urls,
    *games_api_urls,
    path("", include("replays.urls")),
    path("", include("stats.urls")),
    path("", include("tournaments.urls")),
    path("", include("moderation.urls")),
    path("", include("matchmaking.urls")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),  # its script a file: the CSP
]

urlpatterns = [
    # Browsers and tools ask for /favicon.ico whatever the page says: the SVG icon (templates/base.html links it too).
    path("favicon.ico", RedirectView.as_view(url=static("platform/favicon.svg"), permanent=True)),
    path("admin/", admin.site.urls),
    path("i18n/setlang/", accounts_settings_views.set_language, name="set_language"),  # saves to the account too
    path("i18n/", include("django.conf.urls.i18n")),
    # The djangojs catalogue of the request's language: gettext/ngettext/interpolate/pgettext for every page script.
    # Answered 304 to a revalidation until the process restarts (a deploy); base.html puts the language in the
    # URL, so a switched language is a different URL and never a stale catalogue from the cache.
    path("jsi18n/", last_modified(lambda request: CATALOGUE_BUILT)(JavaScriptCatalog.as_view(domain="djangojs")), name="javascript-catalog"),
    path("api/", include(api_patterns)),
    path("", include("ops.urls")),  # /health/ready/, /metrics
    path("", include("accounts.urls")),
    path("", include(people_page_urls)),
    path("", include("replays.page_urls")),
    path("", include("stats.page_urls")),
    path("", include("tournaments.page_urls")),
    path("", include("moderation.page_urls")),
    path("", include(games_page_urls)),
]

if settings.CHANNEL_RELAY_ENDPOINT:
    # The embedded default only: the worker's group messages reach this process's in-memory layer.
    urlpatterns.append(path("internal/relay/", relay_endpoint.channel_relay, name="channel_relay"))
