"""A game's templates and static files, found in its folder through the registry (not listed in settings).

Why: a game is rules plus files in `games/<slug>/` (its table renderer and styles under `static/`, its
lobby card and help page under `templates/`), not a Django app. Settings used to list those folders
for the installed slugs; the template loader and the static files finder below ask the registry at
each lookup instead, so a game registered at run time (the test suite's own) is served from its
folder like an installed one, and settings name no game. Names stay `games/<slug>/...`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.staticfiles.finders import FileSystemFinder
from django.core.files.storage import FileSystemStorage
from django.template.loaders.filesystem import Loader as FileSystemLoader

from games.kit.registry import game_folders


class GameTemplateLoader(FileSystemLoader):
    """Templates from every registered game's `templates/` folder."""

    def get_dirs(self) -> list[Path]:
        return game_folders("templates")


class GameStaticFinder(FileSystemFinder):
    """Static files from every registered game's `static/` folder (collectstatic and whitenoise use it too)."""

    def __init__(self, app_names: Any = None, *args: Any, **kwargs: Any) -> None:
        self.locations: list[tuple[str, str]] = []
        self.storages: dict[str, FileSystemStorage] = {}
        self._refresh()

    def _refresh(self) -> None:
        """The registry's folders as they are now (finders are built once per process)."""
        roots = [str(p) for p in game_folders("static")]
        self.locations = [("", root) for root in roots]
        for root in roots:
            if root not in self.storages:
                storage = FileSystemStorage(location=root)
                storage.prefix = ""  # type: ignore[attr-defined]
                self.storages[root] = storage

    def check(self, **kwargs: Any) -> list[Any]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> Any:
        self._refresh()
        return super().find(path, find_all, **kwargs)

    def list(self, ignore_patterns: Any) -> Any:
        self._refresh()
        return super().list(ignore_patterns)
