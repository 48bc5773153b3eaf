"""Sources on a build sheet: the publisher named first, each sentence numbered once,
long ones cut at a word."""

from __future__ import annotations

import pytest

from core.text.sources import References, numbers_text, publisher, shorten


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # a known publisher at the start of the sentence
        (
            "PCPartPicker (pcpartpicker.com) listed US price for 'Samsung 990 Pro (2000 GB)' "
            "on 2025-07-23 (as scraped in github docyx/pc-part-dataset)",
            "PCPartPicker",
        ),
        # the address comes before any known name: its domain is the publisher
        ("https://www.tweakpc.de/hardware/tests/netzteile/ (80 PLUS Gold series)", "tweakpc.de"),
        ("leganerd.com/2022/08/07 amd-ryzen-7000 spec leak", "leganerd.com"),
        # a domain of a known publisher gets the publisher's name
        ("https://www.techpowerup.com/gpu-specs/geforce-rtx-4090.c3889", "TechPowerUp"),
        # a title quoted after the publisher does not make the brand its publisher
        ("CNBC, 'Nvidia CEO Jensen Huang says the H20 ...'", "CNBC"),
        ("The Register, 'Nvidia's China-market H20 ...'", "The Register"),
        (
            "AI Tool Discovery, 'NVIDIA A100 ...' https://www.aitooldiscovery.com",
            "AI Tool Discovery",
        ),
        # a lead that only says where it was found: the rest names the publisher
        (
            "github docyx/pc-part-dataset data/csv/cpu.csv @06ffc8e (PCPartPicker scrape)",
            "PCPartPicker",
        ),
        # a file name is not a domain
        ("throughput.py table copied from the NVIDIA datasheets", "NVIDIA"),
        # a rating named inside a retailer's line is not its publisher
        ("80 PLUS program requirements, 115 V internal non-redundant", "80 PLUS (CLEAResult)"),
        (
            "Retailer catalogue line ('be quiet!', 'Dark Power Pro 13 1600W', '80 PLUS Titanium')",
            "Retailer catalogue line",
        ),
        # neither: the words before the first comma, colon or bracket (five at most)
        ("Stas Bekman, 'Machine Learning Engineering', chapter 3", "Stas Bekman"),
        ("one two three four five six seven", "one two three four five\u2026"),
    ],
)
def test_publisher(source: str, expected: str) -> None:
    assert publisher(source) == expected


def test_shorten_cuts_at_a_word() -> None:
    text = "alpha beta gamma delta"
    assert shorten(text, 100) == text
    # 14 characters hold "alpha beta gam": the cut falls back to the last whole word
    assert shorten(text, 14) == "alpha beta \u2026"
    assert shorten("a  b\n c", 10) == "a b c"


def test_references_number_each_sentence_once() -> None:
    refs = References()
    assert refs.cite("NVIDIA datasheet") == 1
    assert refs.cite("TechPowerUp GPU Database") == 2
    # the same sentence, other whitespace: the same number
    assert refs.cite("NVIDIA   datasheet") == 1
    assert [(r.number, r.publisher) for r in refs.items] == [(1, "NVIDIA"), (2, "TechPowerUp")]


def test_a_condensed_list_numbers_each_address_of_a_publisher_once() -> None:
    """A comparison sheet lists its sources condensed to their address: two sentences that
    read the same page of the same publisher (one system's memory, another's power) are one
    entry; the same address cited for another publisher stays its own."""
    import re

    def first_address(text: str) -> str:
        found = re.search(r"https?://\S+", text)
        return found.group(0) if found else text

    refs = References(condense=first_address)
    review = "https://verdict-reviews.com/product/framework-desktop/"
    assert refs.cite(f"Verdict Reviews, Framework Desktop memory, {review}") == 1
    assert refs.cite(f"Verdict Reviews, Framework Desktop wall power 140 W, {review}") == 1
    assert refs.cite(f"AMD, Ryzen AI Max+ 395 page, {review}") == 2
    assert [(r.number, r.publisher, r.text) for r in refs.items] == [
        (1, "Verdict Reviews", review),
        (2, "AMD", review),
    ]


def test_numbers_text_joins_runs() -> None:
    assert numbers_text([3]) == "[3]"
    assert numbers_text([5, 1, 2]) == "[1], [2], [5]"
    assert numbers_text([4, 2, 3, 9, 2]) == "[2]\u2013[4], [9]"
