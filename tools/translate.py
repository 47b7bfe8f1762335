"""Fill German and French translations into locale/*/django.po, then compile.

Usage: python tools/translate.py  (after `manage.py makemessages -l de -l fr --ignore=var
--ignore=tools --ignore=tests`). A msgid missing from the table gets no translation, not msgmerge's
fuzzy guess at one.
The table below is the one place platform strings are translated; a msgid
missing here is reported so nobody ships an untranslated page unknowingly.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

T: dict[str, tuple[str, str]] = {
    "Leaderboards": ("Bestenlisten", "Classements"),
    "Tournaments": ("Turniere", "Tournois"),
    "Series (first to two wins):": ("Serie (wer zuerst zweimal gewinnt):", "Série (le premier à deux victoires) :"),
    "Series winner": ("Seriensieger", "Vainqueur de la série"),
    "Username": ("Benutzername", "Nom d'utilisateur"),
    "Email (optional)": ("E-Mail (freiwillig)", "E-mail (facultatif)"),
    "Password": ("Passwort", "Mot de passe"),
    "Too many failed log-ins. Try again in a few minutes.": (
        "Zu viele fehlgeschlagene Anmeldungen. Versuche es in ein paar Minuten wieder.",
        "Trop de connexions échouées. Réessayez dans quelques minutes.",
    ),
    "Log in": ("Anmelden", "Se connecter"),
    "New here?": ("Neu hier?", "Nouveau ici ?"),
    "Sign up": ("Registrieren", "S'inscrire"),
    "bot": ("Bot", "bot"),
    "Member since": ("Mitglied seit", "Membre depuis"),
    "Recent matches": ("Letzte Partien", "Parties récentes"),
    "All matches of this player": ("Alle Partien dieses Spielers", "Toutes les parties de ce joueur"),
    "Create account": ("Konto anlegen", "Créer un compte"),
    "Already registered?": ("Schon registriert?", "Déjà inscrit ?"),
    "Card tables": ("Kartentische", "Tables de cartes"),
    "Lobby": ("Lobby", "Salon"),
    "Matches": ("Partien", "Parties"),
    "Log out": ("Abmelden", "Se déconnecter"),
    "Language": ("Sprache", "Langue"),
    "Go": ("Los", "Aller"),
    "Create a table": ("Tisch eröffnen", "Créer une table"),
    "Game": ("Spiel", "Jeu"),
    "Seats": ("Plätze", "Places"),
    "Ranked": ("Gewertet", "Classée"),
    "Options": ("Optionen", "Options"),
    "Create table": ("Tisch eröffnen", "Créer la table"),
    "or": ("oder", "ou"),
    "sign up": ("registriere dich", "inscrivez-vous"),
    "to create or join a table.": ("um einen Tisch zu eröffnen oder dich dazuzusetzen.", "pour créer ou rejoindre une table."),
    "Rules": ("Regeln", "Règles"),
    "Open tables": ("Offene Tische", "Tables ouvertes"),
    "Host": ("Gastgeber", "Hôte"),
    "Players": ("Spieler", "Joueurs"),
    "Playing now": ("Laufende Partien", "En cours"),
    "Join": ("Mitspielen", "Rejoindre"),
    "Watch": ("Zuschauen", "Regarder"),
    "Open": ("Öffnen", "Ouvrir"),
    "Table created": ("Tisch eröffnet", "Table créée"),
    "yes": ("ja", "oui"),
    "no": ("nein", "non"),
    "The rules of this game are not written yet.": ("Die Regeln dieses Spiels fehlen noch.", "Les règles de ce jeu ne sont pas encore écrites."),
    "Invite link": ("Einladungslink", "Lien d'invitation"),
    "Chat": ("Chat", "Discussion"),
    "Message": ("Nachricht", "Message"),
    "Send": ("Senden", "Envoyer"),
    "Take this seat": ("Hier hinsetzen", "Prendre cette place"),
    "Add bot": ("Bot hinzufügen", "Ajouter un bot"),
    "Start": ("Starten", "Commencer"),
    "Leave": ("Aufstehen", "Quitter"),
    "Play again": ("Noch einmal", "Rejouer"),
    "empty": ("frei", "libre"),
    "away — a bot plays for now": ("abwesend — ein Bot spielt solange", "absent — un bot joue en attendant"),
    "host": ("Gastgeber", "hôte"),
    "connected": ("verbunden", "connecté"),
    "reconnecting…": ("verbinde neu…", "reconnexion…"),
    "you": ("du", "vous"),
    "open": ("offen", "ouverte"),
    "playing": ("läuft", "en cours"),
    "finished": ("beendet", "terminée"),
    "Watch replay": ("Wiederholung ansehen", "Revoir la partie"),
    "Level": ("Stufe", "Niveau"),
    "easy": ("leicht", "facile"),
    "normal": ("normal", "normal"),
    "hard": ("schwer", "difficile"),
    "all": ("alle", "tous"),
    "Player": ("Spieler", "Joueur"),
    "Status": ("Status", "État"),
    "live": ("live", "en direct"),
    "aborted": ("abgebrochen", "interrompue"),
    "Filter": ("Filtern", "Filtrer"),
    "Started": ("Begonnen", "Commencée"),
    "Watch live": ("Live zuschauen", "Regarder en direct"),
    "No matches yet.": ("Noch keine Partien.", "Pas encore de parties."),
    "Replay": ("Wiederholung", "Rediffusion"),
    "Previous important event": ("Voriges wichtiges Ereignis", "Événement important précédent"),
    "One event back": ("Ein Ereignis zurück", "Un événement en arrière"),
    "Play": ("Abspielen", "Lecture"),
    "One event forward": ("Ein Ereignis vor", "Un événement en avant"),
    "Next important event": ("Nächstes wichtiges Ereignis", "Événement important suivant"),
    "Speed": ("Tempo", "Vitesse"),
    "Perspective": ("Sicht", "Point de vue"),
    "Copy link": ("Link kopieren", "Copier le lien"),
    "Events": ("Ereignisse", "Événements"),
    "Pause": ("Pause", "Pause"),
    "Everything": ("Alles", "Tout"),
    "Spectator": ("Zuschauer", "Spectateur"),
    "Seat": ("Platz", "Place"),
    "Link copied": ("Link kopiert", "Lien copié"),
}


def _load_extra() -> None:
    """Features keep their strings in tools/translations/<feature>.py (a dict `T` like the one above)."""
    import importlib.util

    for f in sorted((ROOT / "tools" / "translations").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"translations_{f.stem}", f)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        T.update(module.T)


# One entry: its msgid and its msgstr, each a quoted line and any quoted continuation lines
# (makemessages wraps long strings, so either may span lines; the whole msgstr block is replaced:
# replacing its first line only left the old continuation lines appended to the new text).
_QUOTED = r'"(?:[^"\\\n]|\\.)*"'
ENTRY = re.compile(rf"^msgid ({_QUOTED}(?:\n{_QUOTED})*)\nmsgstr ({_QUOTED}(?:\n{_QUOTED})*)$", re.M)


def _unquote(block: str) -> str:
    inner = "".join(line[1:-1] for line in block.split("\n"))
    return inner.encode().decode("unicode_escape").encode("latin-1").decode("utf-8")


def fill(path: Path, index: int) -> list[str]:
    text = path.read_text(encoding="utf-8")
    missing: list[str] = []

    def repl(m: re.Match[str]) -> str:
        msgid = _unquote(m.group(1))
        if msgid == "":
            return m.group(0)
        if msgid not in T:  # untranslated, not a guess: msgmerge's fuzzy guesses lose their flag below
            missing.append(msgid)
            return f'msgid {m.group(1)}\nmsgstr ""'
        value = T[msgid][index].replace("\\", "\\\\").replace('"', '\\"')
        return f'msgid {m.group(1)}\nmsgstr "{value}"'

    text = ENTRY.sub(repl, text)
    text = text.replace("#, fuzzy\n", "").replace("#, fuzzy, ", "#, ")  # msgfmt skips fuzzy entries
    path.write_text(text, encoding="utf-8")
    return missing


def main() -> int:
    _load_extra()
    missing: set[str] = set()
    for lang, index in (("de", 0), ("fr", 1)):
        po = ROOT / "locale" / lang / "LC_MESSAGES" / "django.po"
        missing |= set(fill(po, index))
        subprocess.run(["msgfmt", "-o", str(po.with_suffix(".mo")), str(po)], check=True)
    for m in sorted(missing):
        print(f"untranslated: {m!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
