"""The one error type services raise; views and consumers turn it into answers."""

from __future__ import annotations

from games.error_texts import player_message


class PlatformError(Exception):
    """A refused request. `code` is the protocol's error code, `status` the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400, rule_code: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule_code = rule_code

    def as_json(self) -> dict:
        # `detail` is for the player: in the request's language (LocaleMiddleware), see games/error_texts.py.
        detail = player_message(code=self.code, rule_code=self.rule_code, fallback=self.message)
        out = {"detail": detail, "code": self.code}
        if self.rule_code:
            out["rule_code"] = self.rule_code
        return out


def conflict(message: str, code: str = "conflict") -> PlatformError:
    return PlatformError(code, message, 409)


def forbidden(message: str, code: str = "forbidden") -> PlatformError:
    return PlatformError(code, message, 403)


def bad_request(message: str, code: str = "bad_request") -> PlatformError:
    return PlatformError(code, message, 400)


def not_found(message: str, code: str = "not_found") -> PlatformError:
    return PlatformError(code, message, 404)
