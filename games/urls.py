from django.urls import path

from games import api, views

page_urls = [
    path("", views.lobby, name="lobby"),
    path("tables/<int:table_id>/", views.table_page, name="table"),
    path("invite/<str:code>/", views.invite, name="invite"),
    path("games/<slug:slug>/rules/", views.rules_help, name="rules_help"),
    path("health/", views.health, name="health"),
]

api_urls = [
    path("games/", api.GameListApi.as_view()),
    path("tables/", api.TableListApi.as_view()),
    path("tables/play-now/", api.TablePlayNowApi.as_view()),
    path("tables/<int:table_id>/", api.TableDetailApi.as_view()),
    path("tables/<int:table_id>/join/", api.TableJoinApi.as_view()),
    path("tables/<int:table_id>/leave/", api.TableLeaveApi.as_view()),
    path("tables/<int:table_id>/bots/", api.TableBotApi.as_view()),
    path("tables/<int:table_id>/start/", api.TableStartApi.as_view()),
    path("tables/<int:table_id>/rematch/", api.TableRematchApi.as_view()),
]
