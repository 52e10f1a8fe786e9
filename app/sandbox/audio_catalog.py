"""An invented Instagram audio catalog (music + original sounds) for the audio search route.

Titles and artists deliberately carry accents and mixed case so accent-insensitive matching is
exercised. Every id is digits only, as the spec requires of audio asset ids.
"""

from __future__ import annotations

from dataclasses import dataclass

CDN = "https://cdn.example.invalid"


@dataclass(frozen=True)
class AudioSeed:
    id: str
    type: str
    title: str
    artist: str | None
    duration_ms: int | None
    trending_rank: int | None = None


_MUSIC: list[tuple[str, str, int, int | None]] = [
    ("Café del Mar Sunrise", "Marisol Peña", 214000, 1),
    ("Crazy in Lisbon", "Beyoncé", 198000, 2),
    ("Hoppípolla Dawn", "Sigur Rós", 268000, None),
    ("Ágætis Byrjun Reprise", "Sigur Rós", 301000, 7),
    ("Déjà Vu at Noon", "Beyoncé", 176000, None),
    ("Señorita Latte", "Joaquín Álvarez", 165000, 3),
    ("Crème Brûlée", "Amélie Dubois", 142000, None),
    ("Über den Wolken", "Jürgen Müller", 233000, None),
    ("Smörgåsbord", "Björk Ólafsdóttir", 187000, 9),
    ("Niño Bonito", "Ramón Sánchez", 156000, None),
    ("Morning Grind", "The Roastery Collective", 121000, 4),
    ("Espresso Yourself", "Nadia Okafor", 149000, None),
    ("Pour Over Love", "Tomás Ibáñez", 203000, None),
    ("Cold Brew Summer", "Kai Nakamura", 178000, 5),
    ("Latte Art Lullaby", "Chloé Martin", 192000, None),
    ("Bean There", "Oskar Lindqvist", 134000, None),
    ("Mocha Nights", "Zoë Papadopoulos", 221000, 10),
    ("Roast Me Gently", "Frédéric Roy", 167000, None),
    ("Arabica Dreams", "Leïla Haddad", 244000, None),
    ("Açaí Bowl Bossa", "João Gonçalves", 158000, 6),
    ("Café con Leche", "Marisol Peña", 171000, None),
    ("São Paulo Drip", "João Gonçalves", 139000, None),
    ("Kaffeeklatsch", "Jürgen Müller", 205000, None),
    ("Fika Time", "Björk Ólafsdóttir", 126000, 8),
    ("Café Society", "The Roastery Collective", 189000, None),
    ("Náttúra", "Sigur Rós", 255000, None),
    ("Sunday Café", "Amélie Dubois", 174000, None),
    ("Grounds for Celebration", "Nadia Okafor", 162000, None),
    ("Barista Ballad", "Tomás Ibáñez", 236000, None),
    ("Flat White Flow", "Kai Nakamura", 118000, None),
    ("Déjà Brew", "Chloé Martin", 151000, None),
    ("Cortado Corazón", "Joaquín Álvarez", 183000, None),
    ("Oat Milk Groove", "Oskar Lindqvist", 144000, None),
    ("Perfect Crema", "Frédéric Roy", 197000, None),
    ("Café Noir", "Leïla Haddad", 212000, None),
    ("Cinnamon Swirl", "Zoë Papadopoulos", 133000, None),
    ("Single Origin", "Ramón Sánchez", 226000, None),
    ("Halo Über Alles", "Beyoncé", 209000, None),
    ("Rainy Day Roast", "Marisol Peña", 187000, None),
    ("Last Call Cappuccino", "The Roastery Collective", 169000, None),
]

_ORIGINAL: list[tuple[str, str, int | None, int | None]] = [
    ("Original audio", "northwind.coffee", 15000, 1),
    ("Milk steamer ASMR", "barista.bea", 22000, 2),
    ("Grinder sound check", "café.josé", 9000, None),
    ("Latte art tutorial voiceover", "amélie.pours", 47000, 3),
    ("Original audio", "roastery.rené", 31000, None),
    ("Rain on the café window", "cozy.corner", 60000, 4),
    ("Morning rush ambience", "northwind.coffee", 40000, None),
    ("Espresso shot countdown", "barista.bea", 12000, 5),
    ("Original audio", "zoë.brews", 18000, None),
    ("Señor Bean says hola", "señor.bean", 8000, None),
    ("Pour over timer", "cozy.corner", 210000, None),
    ("Café del Mar beach waves", "playa.sounds", 58000, 6),
    ("Original audio", "jürgen.kaffee", None, None),
    ("Coffee bag unboxing", "northwind.coffee", 35000, None),
    ("Tasting notes monologue", "roastery.rené", 52000, None),
    ("Sigur Rós cover on ukulele", "björk.fan.club", 73000, 7),
    ("Beyoncé dance trend audio", "dance.daily", 16000, 8),
    ("Original audio", "kai.cold.brew", 14000, None),
    ("Crème brûlée torch crackle", "dessert.lab", 11000, None),
    ("French press plunge", "amélie.pours", 7000, None),
]


def catalog() -> list[AudioSeed]:
    entries: list[AudioSeed] = []
    for i, (title, artist, duration, rank) in enumerate(_MUSIC):
        entries.append(AudioSeed(f"90817263{i:04d}", "music", title, artist, duration, rank))
    for i, (title, creator, length, position) in enumerate(_ORIGINAL):
        entries.append(
            AudioSeed(f"18046572{i:04d}", "original_sound", title, creator, length, position)
        )
    return entries
