"""Where a hedged target begins and ends (issue 12, round 5): the real-text set counts a target cut
too short or too long as wrong ("target exact"). Examples are our own wording; the held-out probes
of benchmark/target_probes5.py are different sentences."""

from __future__ import annotations

import pytest

import cuelex


def pairs_of(text: str) -> list[tuple[str, str, str]]:
    return [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(text)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the bare word "symptoms" as the subject of a change of course: the course is the target
        ("If his symptoms persist past Friday, he will call.", [("If", "symptoms persist", "UL5")]),
        ("Unless her symptoms recur, no further testing is planned.", [("Unless", "symptoms recur", "UL5")]),
        ("She will phone us if the symptoms come back.", [("phone us if", "symptoms come back", "UL5")]),
        ("If symptoms have not resolved by then, we will repeat the labs.",
         [("If", "symptoms have not resolved", "UL5")]),
        ("Should his symptoms get worse, he will go to urgent care.", [("Should", "symptoms get worse", "UL5")]),
    ],
)
def test_course_of_generic_subject_is_the_target(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "target"),
    [
        # a specific finding names the proposition by itself: the finding alone is the target
        ("If the wheezing persists, she will come back.", "wheezing"),
        ("If his shoulder pain does not improve, we will get an MRI.", "shoulder pain"),
        # a qualified generic head is a finding already ("new symptoms")
        ("We will image again unless new symptoms develop.", "new symptoms"),
    ],
)
def test_specific_subject_keeps_the_finding(text: str, target: str) -> None:
    assert [t for _, t, lv in pairs_of(text) if lv == "UL5"] == [target]


def test_generic_course_outside_a_condition_gives_no_target() -> None:
    # a report of the course, not a condition: no contingency, and no "symptoms ..." target
    assert all(not t.startswith("symptoms") for _, t, _ in pairs_of("Her symptoms have not improved this week."))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a relation word between the hedge and the diagnosis is not part of the target
        ("The opacity is likely representative of atelectasis.", ("likely", "atelectasis", "UL2")),
        ("These findings are probably indicative of dehydration.", ("indicative of", "dehydration", "UL2")),
        ("Bibasilar markings, possibly reflective of chronic bronchitis.",
         ("possibly", "chronic bronchitis", "UL3")),
        ("His cough is most likely the result of postnasal drip.", ("most likely", "postnasal drip", "UL2")),
    ],
)
def test_relation_words_are_stripped(text: str, expected: tuple) -> None:
    assert expected in pairs_of(text)


def test_more_of_a_is_stripped() -> None:
    assert [t for _, t, _ in pairs_of("I believe this is more of a tension headache.")] == ["tension headache"]


def test_relation_words_without_a_hedge_give_no_pair() -> None:
    assert pairs_of("The bloodwork was representative of her baseline.") == []
    assert pairs_of("The bruise is the result of a fall.") == []


def test_rewrite_of_a_course_target_is_found_through_its_subject() -> None:
    # the rewrite says the course in other words; the contingency is still found and kept (UL5)
    report = cuelex.score(
        "If his symptoms do not improve, we will consider an injection.",
        "If your symptoms do not get better, we may try an injection.",
    )
    (scored,) = report.pairs
    assert scored.source.target_text == "symptoms do not improve"
    # found by the course said under the condition (tests/test_course_wording.py), which comes
    # before the bare subject "symptoms"
    assert (scored.match.text, scored.output_level.value, scored.fate) == ("do not get better", "UL5", "preserved")
    assert scored.match.detail == "course"


@pytest.mark.parametrize(
    "text",
    [
        # a checklist question answered after its colon: the item's topics, not alternatives
        "Fever or night sweats: no.",
        "Chest tightness or palpitations: sometimes, with exercise.",
        # an exam heading ended by a spaced dash
        "Gastrointestinal/Abdomen - Palpation: soft, nontender.",
    ],
)
def test_markers_inside_a_label_are_not_alternatives(text: str) -> None:
    assert not [p for p in pairs_of(text) if p[2] == "UL3"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after the label the same markers offer alternatives
        ("Impression: edema or early pneumonia.", [("or", "edema", "UL3"), ("or", "early pneumonia", "UL3")]),
        ("Assessment: tendinitis/bursitis of the shoulder.",
         [("/", "tendinitis", "UL3"), ("/", "bursitis of the shoulder", "UL3")]),
    ],
)
def test_markers_after_a_label_still_offer_alternatives(text: str, expected: list) -> None:
    assert pairs_of(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a bullet list: the next line's bullet dash is no label dash of this line
        ("- Left base scarring/atelectasis\n- No pneumothorax",
         [("/", "Left base scarring", "UL3"), ("/", "atelectasis", "UL3"), ("No", "pneumothorax", "UL1")]),
        ("- Streaky opacity, probably scarring or atelectasis\n- Heart size normal",
         # (alternatives under "probably": each one is only possible)
         [("probably", "scarring", "UL3"), ("probably", "atelectasis", "UL3")]),
    ],
)
def test_a_bullet_on_the_next_line_is_no_label(text: str, expected: list) -> None:
    assert [p for p in pairs_of(text) if p[2] != "ASSERTED"] == expected


def test_a_report_heading_after_a_list_is_no_label_of_it() -> None:
    # a capitalised report heading after a list that lost its full stop is no label of the list
    assert ("or", "Scarring", "UL3") in pairs_of("Scarring or atelectasis IMPRESSION: stable.")


@pytest.mark.parametrize(
    "text",
    [
        # a combined cardiac device written with a slash is one device, not two diagnoses
        "Left subclavian pacemaker/defibrillator, unchanged.",
        "AICD/pacemaker generator overlies the left chest.",
    ],
)
def test_device_slash_is_no_alternative(text: str) -> None:
    assert pairs_of(text) == []


def test_findings_beside_a_device_keep_their_pairs() -> None:
    pairs = pairs_of("ICD in place. Scarring/atelectasis at the right base. No effusion around the pacemaker leads.")
    assert ("/", "Scarring", "UL3") in pairs and ("No", "effusion", "UL1") in pairs
