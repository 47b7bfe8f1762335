from django.urls import path

from accounts import settings_views, views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.LoginView.as_view(), name="login"),
    path("logout/", views.LogoutView.as_view(), name="logout"),
    path("settings/", settings_views.settings_page, name="settings"),
    path("password-reset/", settings_views.password_reset_page, name="password_reset"),
    path("reset/<str:uid>/<str:token>/", settings_views.password_reset_confirm_page, name="password_reset_confirm"),
    path("verify-email/<str:uid>/<str:token>/", settings_views.verify_email_page, name="verify_email"),
]

# REST (config/urls.py mounts these under api/): PROTOCOL.md "People", the account's own part.
from accounts import api  # noqa: E402

api_urlpatterns = [
    path("me/password/", api.PasswordChangeApi.as_view()),
    path("me/export/", api.ExportApi.as_view()),
    path("me/email/verify/", api.EmailVerifyApi.as_view()),
    path("auth/password-reset/", api.PasswordResetApi.as_view()),
    path("auth/password-reset/confirm/", api.PasswordResetConfirmApi.as_view()),
    path("auth/email/verify/", api.EmailVerifyConfirmApi.as_view()),
]
