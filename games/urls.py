from django.urls import path

from games import api, views
from games.first_hour import views as first_hour_views

page_urls = [
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("games/<slug:slug>/rules/", views.rules_help, name="rules_help"),
    path("games/<slug:slug>/learn/", first_hour_views.learn, name="learn"),
    path("health/", views.health, name="health"),
]

api_urls = [
    path("games/", api.GameListApi.as_view()),
    path("tables/", api.TableListApi.as_view()),
    path("tables/play-now/", api.TablePlayNowApi.as_view()),
    path("tables/<int:table_id>/", api.TableDetailApi.as_view()),
    *(
        path(f"tables/<int:table_id>/{action}/", view.as_view())
        for action, view in (
            ("join", api.TableJoinApi),
            ("leave", api.TableLeaveApi),
            ("bots", api.TableBotApi),
            ("start", api.TableStartApi),
            ("rematch", api.TableRematchApi),
            ("resign", api.TableResignApi),
        )
    ),
]
