from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts import tasks  # noqa: F401  (registers accounts.send_mail by name in every process)
        from accounts.session_end import credentials_gone  # its receivers connect on import
        from live import bus

        bus.sessions_check_with(credentials_gone)
