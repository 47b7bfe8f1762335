"""German and French strings of sign-up and log-in limits, reserved bot names, tokens and invitations."""

T: dict[str, tuple[str, str]] = {
    "Names starting with “bot-” are reserved for the platform's bots.": (
        "Namen, die mit „bot-“ beginnen, sind den Bots der Plattform vorbehalten.",
        "Les noms commençant par « bot- » sont réservés aux bots de la plateforme.",
    ),
    "Too many sign-ups from your address. Try again in %(minutes)s min.": (
        "Zu viele Registrierungen von deiner Adresse. Versuche es in %(minutes)s Min. wieder.",
        "Trop d'inscriptions depuis votre adresse. Réessayez dans %(minutes)s min.",
    ),
    "Too many log-in attempts from your address. Try again in %(minutes)s min.": (
        "Zu viele Anmeldeversuche von deiner Adresse. Versuche es in %(minutes)s Min. wieder.",
        "Trop de tentatives de connexion depuis votre adresse. Réessayez dans %(minutes)s min.",
    ),
    "Token expired: ask POST /api/auth/token/ for a new one.": (
        "Token abgelaufen: POST /api/auth/token/ gibt einen neuen.",
        "Jeton expiré : demandez-en un nouveau avec POST /api/auth/token/.",
    ),
    "Invitation": ("Einladung", "Invitation"),
    "%(host)s invites you to a table of %(game)s.": (
        "%(host)s lädt dich an einen Tisch %(game)s ein.",
        "%(host)s vous invite à une table de %(game)s.",
    ),
    "Ranked: the result counts for the leaderboard.": (
        "Gewertet: das Ergebnis zählt für die Bestenliste.",
        "Classée : le résultat compte pour le classement.",
    ),
    "Casual: the result does not count for the leaderboard.": (
        "Ungewertet: das Ergebnis zählt nicht für die Bestenliste.",
        "Amicale : le résultat ne compte pas pour le classement.",
    ),
    "%(free)s of %(seats)s seats free.": ("%(free)s von %(seats)s Plätzen frei.", "%(free)s places libres sur %(seats)s."),
    "Just watch": ("Nur zuschauen", "Juste regarder"),
    "This table has already started: you will watch.": (
        "Dieser Tisch spielt schon: du schaust zu.",
        "Cette table a déjà commencé : vous regarderez.",
    ),
    "This table is full: you will watch.": ("Dieser Tisch ist voll: du schaust zu.", "Cette table est complète : vous regarderez."),
}
