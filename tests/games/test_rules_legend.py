"""The rules pages explain their [D] marks (the site's own decisions), in the reader's language."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.kit.registry import public_slugs


@pytest.mark.parametrize(("lang", "words"), [("en", "marks a decision of this site"), ("de", "markiert eine Entscheidung"), ("fr", "signale une décision")])
def test_every_rules_page_with_d_marks_explains_them(db: None, lang: str, words: str) -> None:
    explained = 0
    for slug in public_slugs():
        with translation.override("en"):  # the request activates `lang`; leave this thread's language as it was
            page = Client(HTTP_ACCEPT_LANGUAGE=lang).get(f"/games/{slug}/rules/")
        html = page.content.decode()
        assert page.status_code == 200 and f'<html lang="{lang}">' in html, slug
        if "[D]" in html.split('data-testid="rules-legend"', 1)[-1]:
            assert 'data-testid="rules-legend"' in html and words in html, (slug, lang)
            explained += 1
    assert explained >= 4  # every game's page carries [D] decisions today
