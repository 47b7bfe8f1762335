"""German and French strings of the match history and replay pages."""

T: dict[str, tuple[str, str]] = {
    "%(game_name)s matches": ("%(game_name)s-Partien", "Parties de %(game_name)s"),
    "%(game_name)s matches of %(player)s": ("%(game_name)s-Partien von %(player)s", "Parties de %(game_name)s de %(player)s"),
    "Matches of %(player)s": ("Partien von %(player)s", "Parties de %(player)s"),
    "All %(game_name)s matches": ("Alle %(game_name)s-Partien", "Toutes les parties de %(game_name)s"),
    "Profile of %(player)s": ("Profil von %(player)s", "Profil de %(player)s"),
    "Page %(number)s of %(pages)s": ("Seite %(number)s von %(pages)s", "Page %(number)s sur %(pages)s"),
    "Previous page": ("Vorige Seite", "Page précédente"),
    "Next page": ("Nächste Seite", "Page suivante"),
    "Important event": ("Wichtiges Ereignis", "Événement important"),
    "Position in the match": ("Stelle in der Partie", "Position dans la partie"),
}
