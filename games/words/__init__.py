"""The platform's own words for players, in their language: gettext catalogues looked up by code.

- `error_texts`: the sentence a player reads for every refusal (`PlatformError.code`, `RuleError.code`);
- `option_texts`: the labels and help of the table's own options in the create form.

Not here: a game's own words (games/<slug>/texts.py, on the kit's `GameTexts` in games/kit/texts.py,
found through the registry), nor the translations themselves (locale/<lang>/LC_MESSAGES/django.po).
"""
