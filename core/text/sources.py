"""Sources as a reader sees them: the publisher first, numbered once, cut at a word.

A catalog source is a sentence written when the value was read ("PCPartPicker
(pcpartpicker.com) listed US price … for 'Samsung 990 Pro' on 2025-07-23 …"). A build
sheet lists each such sentence once, numbered, led by the name of its original
publisher, and the parts table points at the numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

REFERENCE_CHARS = 420
"""Longest reference text printed; the full sentence stays in the catalog entry."""

# (pattern searched case-insensitively in a source's lead, the publisher's name): the one
# found earliest there names the publisher (``publisher``).
_PUBLISHERS: tuple[tuple[str, str], ...] = (
    (r"pcpartpicker", "PCPartPicker"),
    (r"buildcores", "BuildCores OpenDB"),
    (r"techpowerup", "TechPowerUp"),
    (r"wikipedia", "Wikipedia"),
    (r"tom'?s ?hardware|tomshardware", "Tom's Hardware"),
    (r"anandtech", "AnandTech"),
    (r"servethehome", "ServeTheHome"),
    (r"ark\.intel\.com|intel ark", "Intel"),
    (r"nvidia", "NVIDIA"),
    (r"\bamd\b|amd\.com", "AMD"),
    (r"\bintel\b", "Intel"),
    (r"\blambda\b", "Lambda"),
    (r"mlcommons|mlperf", "MLCommons"),
    (r"80 plus program|clearesult", "80 PLUS (CLEAResult)"),
    (r"\bebay\b", "eBay"),
    (r"\bamazon\b", "Amazon"),
    (r"newegg", "Newegg"),
    (r"\bgithub\b", "GitHub"),
)
_DOMAIN = re.compile(
    r"\b(?:https?://)?(?:www\.)?((?:[a-z0-9-]+\.)+([a-z]{2,}))(?=[/\s),;:'\"]|$)", re.I
)
_FILE_ENDINGS = {"py", "csv", "json", "md", "txt", "pdf", "html", "htm", "php", "yaml", "yml"}
_FILE_ENDINGS |= {"js", "ts", "toml", "cfg", "ini", "xlsx", "ipynb", "rst", "cu", "cpp", "h"}


_GENERIC_LEADS = (
    "github",
    "public github",
    "retailer",
    "reseller",
    "distributor",
    "us retail",
    "no ",
    "ebay",
    "dated survey",
)
"""Leads that say where a figure was found, not who published it: the publisher is then
looked for in the rest of the sentence (a PCPartPicker scrape kept on GitHub)."""


def _named(text: str) -> str | None:
    """The known publisher or address domain that comes first in ``text``."""
    found: list[tuple[int, str]] = []
    for pattern, name in _PUBLISHERS:
        match = re.search(pattern, text, re.I)
        if match:
            found.append((match.start(), name))
    for match in _DOMAIN.finditer(text):
        if match.group(2).lower() not in _FILE_ENDINGS:
            domain = match.group(1).lower()
            named = [name for pattern, name in _PUBLISHERS if re.search(pattern, domain, re.I)]
            found.append((match.start(), named[0] if named else domain))
            break
    return min(found)[1] if found else None


def publisher(source: str) -> str:
    """Who published a source sentence, from its lead (the words before its first comma,
    colon, bracket or quote): a known publisher or an address there, else the lead's words
    (five at most). A title quoted later never counts ("CNBC, 'Nvidia CEO says…'" is
    CNBC's); a lead that only says where the figure was found ("github …", "Retailer
    listings …") lets the rest of the sentence name the publisher."""
    text = source.strip()
    if re.match(r"(?:https?://|www\.)", text, re.I):
        lead = text.split()[0]
    else:
        # a comma, semicolon, bracket, a colon before a space, or an opening quote
        lead = re.split(r"\s*[(,;]|:(?=\s|$)|\s['\"\u2018\u201c]", text, maxsplit=1)[0]
    if lead.lower().startswith(_GENERIC_LEADS):
        named = _named(text[len(lead) :]) or _named(lead)
    else:
        named = _named(lead)
    if named is not None:
        return named
    words = lead.split() or text.split()
    return " ".join(words[:5]) + ("\u2026" if len(words) > 5 else "")


def shorten(text: str, limit: int = REFERENCE_CHARS) -> str:
    """``text`` cut at the last whole word within ``limit`` characters, with an ellipsis."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit + 1]
    space = cut.rfind(" ")
    head = cut[:space] if space > limit // 2 else text[:limit]
    return head.rstrip(" ,;:(") + " \u2026"


@dataclass(frozen=True)
class Reference:
    number: int
    publisher: str
    text: str


@dataclass
class References:
    """Sources numbered in the order first cited; the same sentence keeps one number."""

    condense: Callable[[str], str] | None = None
    """Cite each source as this short form of it (its address, say): sources that read the
    same publisher and short form share one number (a comparison's condensed list)."""
    _numbers: dict[tuple[str, str], int] = field(default_factory=dict)
    items: list[Reference] = field(default_factory=list)

    def cite(self, source: str) -> int:
        text = " ".join(source.split())
        shown = shorten(text) if self.condense is None else self.condense(text)
        key = (publisher(text), text if self.condense is None else shown)
        number = self._numbers.get(key)
        if number is None:
            number = len(self.items) + 1
            self._numbers[key] = number
            self.items.append(Reference(number, key[0], shown))
        return number


def numbers_text(numbers: list[int]) -> str:
    """``[1], [3]–[5]``: ascending, runs of three or more joined by a dash."""
    ordered = sorted(set(numbers))
    runs: list[list[int]] = []
    for n in ordered:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = []
    for run in runs:
        if len(run) >= 3:
            parts.append(f"[{run[0]}]\u2013[{run[-1]}]")
        else:
            parts.extend(f"[{n}]" for n in run)
    return ", ".join(parts)
