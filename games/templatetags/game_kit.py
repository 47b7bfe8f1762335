"""Template filters of the game kit: a page includes a game's own piece of page by the game's slug.

Why: the platform's templates loop over the registered games and never switch on a slug; a game
that brings `games/<slug>/<name>.html` (in its folder's templates/) is shown through it, any other
through the plain `games/_game_<name>.html`.
"""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def game_template(slug: str, name: str) -> list[str]:
    """The templates `{% include %}` tries in turn: the game's own `<name>.html`, then the platform's plain one."""
    return [f"games/{slug}/{name}.html", f"games/_game_{name}.html"]
