"""A one-word source finding said by another form of its word or by the everyday verb for it
(alignment tier ``parts``, detail ``derivation``; ``cuelex/data/derived_forms.tsv``): "overuse" in
"overusing your shoulder", "obstruction" in "your bowel may be blocked", and never a form used
about something else. Sentences are written for these tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cuelex
from cuelex.concepts.vocab import DATA_DIR, VocabularyError, tsv_rows
from cuelex.scoring.align import Aligner, derived_forms, derived_stem, normal_words

COLUMNS = ("form", "target", "kind", "example_output")
ROWS = list(tsv_rows(DATA_DIR / "derived_forms.tsv", COLUMNS, "derived forms table"))
PARTS = Aligner(["parts"])


@pytest.mark.parametrize(("line", "cols"), ROWS, ids=[f"{c[1]}:{c[0]}" for _n, c in ROWS])
def test_every_row_example_is_found_on_its_form(line: int, cols: list[str]) -> None:
    form, target, _kind, output = cols
    m = PARTS.find(target, output)
    assert m is not None, f"derived_forms.tsv line {line}: {target!r} not found in {output!r}"
    assert (m.tier, m.detail) == ("parts", "measure" if _kind == "measure" else "derivation")
    assert m.text.lower() == form or m.text.lower().startswith(form[:3]), (line, m.text)


@pytest.mark.parametrize(
    ("words", "stem"),
    [
        (["overuse", "overused", "overusing"], "overus"),
        (["recurrence", "recurs", "recurring", "recurred"], "recur"),
        (["enlargement", "enlarged", "enlarging"], "enlarg"),
        (["dehydration", "dehydrated"], "dehydrat"),
        (["stability", "stable"], "stabl"),
        (["calcification", "calcified"], "calcif"),
        (["distension", "distended"], "distend"),
        (["obstruction", "obstructed", "obstructing"], "obstruct"),
        (["narrowing", "narrowed", "narrow"], "narrow"),
        (["collapse", "collapsed", "collapses"], "collaps"),
    ],
)
def test_a_noun_and_its_verb_and_adjective_forms_share_a_stem(words: list[str], stem: str) -> None:
    assert {derived_stem(w) for w in words} == {stem}


@pytest.mark.parametrize(
    ("target", "output", "said"),
    [("dizziness", "You may feel dizzy.", "dizzy"), ("tiredness", "She feels tired in the evenings.", "tired"), ("numbness", "My toes went numb.", "numb")],
)
def test_a_quality_noun_in_ness_is_found_as_its_adjective(target: str, output: str, said: str) -> None:
    m = PARTS.find(target, output)
    assert m is not None and m.text == said and m.detail == "derivation"


@pytest.mark.parametrize("word", ["scar", "scarring", "use", "tear", "cyst", "mass"])
def test_short_words_have_no_stem_to_compare(word: str) -> None:
    assert derived_stem(word) == ""


@pytest.mark.parametrize(
    ("target", "output", "said"),
    [
        ("overuse", "The ache most likely comes from overusing your elbow at work.", "overusing"),
        ("enlargement", "The gland in your neck has enlarged a little since spring.", "enlarged"),
        ("enlargement", "The scan showed an enlarged liver.", "enlarged"),
        ("dehydration", "You were quite dehydrated when you arrived.", "dehydrated"),
        ("calcification", "A few of the heart valves are calcified.", "calcified"),
        ("distension", "His stomach looked distended after the meal.", "distended"),
        ("swelling", "My feet have swollen badly by the evening.", "swollen"),
        ("bleeding", "The gums bled heavily after the cleaning.", "bled"),
        ("fracture", "You probably cracked a bone in your heel.", "cracked"),
        ("obstruction", "Scar tissue may be blocking part of the bowel.", "blocking"),
        ("dilation", "The tube that carries urine from the kidney looks widened.", "widened"),
        ("stenosis", "The valve of your heart has become narrowed.", "narrowed"),
        ("weakness", "His right leg felt weak on the stairs.", "weak"),
        ("stiffness", "My fingers are stiff in the morning.", "stiff"),
        ("soreness", "Your muscles will be sore after the exercises.", "sore"),
        ("fullness", "She feels full after a few bites.", "full"),
    ],
)
def test_another_form_of_the_finding_is_found(target: str, output: str, said: str) -> None:
    m = PARTS.find(target, output)
    assert m is not None and m.text == said
    assert (m.tier, m.detail) == ("parts", "derivation")
    assert m.low_confidence  # listed for checking


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("recurrence", "Recurring visits can be booked through the portal."),  # modifies another noun
        ("stability", "Stable angina is a kind of chest pain you do not have."),
        ("narrowing", "We narrowed down the possible causes to two."),  # a phrasal verb
        ("obstruction", "We blocked off an hour for your next appointment."),
        ("fracture", "The fever broke during the night."),  # a lay verb said of no body part
        ("obstruction", "Your insurance company blocked the request."),
        ("improvement", "Try to improve your sleep routine."),  # a goal
        ("improvement", "Improve your diet by eating more vegetables."),  # an instruction
        ("improvement", "These exercises help improve balance."),
        ("infection", "An infectious disease doctor will see you."),
        ("progression", "Progressive relaxation can help you fall asleep."),
        ("weakness", "Weak tea with honey may soothe your throat."),  # modifies another noun
        ("stiffness", "A stiff collar keeps the neck still."),
    ],
)
def test_a_form_used_about_something_else_is_not_the_target(target: str, output: str) -> None:
    assert Aligner().find(target, output) is None


@pytest.mark.parametrize(
    ("source", "output", "level"),
    [
        ("Possible small bowel obstruction.", "Your bowel may be blocked.", "UL3"),
        ("No evidence of obstruction.", "Your bowel is not blocked.", "UL1"),
        ("Calcification is likely.", "Some of your heart valves are probably calcified.", "UL2"),
        ("Possible obstruction.", "Your bowel might be blocked.", "UL3"),
    ],
)
def test_the_level_is_read_at_the_derived_form(source: str, output: str, level: str) -> None:
    pairs = [p for p in cuelex.score(source, output).pairs if p.match is not None]
    assert pairs, (source, output)
    p = pairs[0]
    assert p.output_level is not None and p.output_level.value == level, (p.match, p.output_level)


def test_a_body_part_of_another_site_is_not_the_target() -> None:
    # the source places its obstruction in the bowel; the output blocks a kidney tube
    r = cuelex.score("Possible obstruction in the small bowel.", "The tube from your kidney may be blocked.")
    (p,) = r.pairs
    assert p.match is None


def test_the_table_has_every_kind_and_one_word_entries() -> None:
    table = derived_forms()
    kinds = {k for forms in table.values() for _f, k in forms}
    assert kinds == {"form", "lay", "measure"}
    assert all(len(normal_words(t)) == 1 for t in table)


HEADER = "\t".join(COLUMNS) + "\n"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("blocked\tobstruction\tsynonym\tYour bowel is blocked.\n", "kind must be one of"),
        ("blocked up\tobstruction\tlay\tYour bowel is blocked up.\n", "one-word form"),
        ("blocked\tbowel obstruction\tlay\tYour bowel is blocked.\n", "one-word form"),
        ("blocked\tobstruction\tlay\t\n", "an example"),
    ],
)
def test_a_malformed_row_names_file_and_line(tmp_path: Path, row: str, message: str) -> None:
    bad = tmp_path / "derived_forms.tsv"
    bad.write_text("# comment\n" + HEADER + row, encoding="utf-8")
    with pytest.raises(VocabularyError, match=message) as err:
        derived_forms(bad)
    assert "derived_forms.tsv:3" in str(err.value)


_WORDS = [
    "your", "the", "bowel", "kidney", "is", "may", "be", "blocked", "blocking", "off", "down", "we",
    "fever", "broke", "broken", "wrist", "to", "improve", "improving", "diet", "try", "not", "but",
    "narrowed", "artery", "recurring", "visits", ",", ".",
]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(_WORDS), max_size=20),
    st.sampled_from(["obstruction", "fracture", "improvement", "stenosis", "recurrence"]),
)
def test_a_derived_match_is_one_word_not_modifying_another_noun(words: list[str], target: str) -> None:
    text = " ".join(words)
    m = PARTS.find(target, text)
    if m is None:
        return
    assert m.detail == "derivation" and len(normal_words(m.text)) == 1
    rest = text[m.end :].split()
    if rest and rest[0] not in (",", "."):
        assert rest[0] not in {"visits", "diet", "off", "down", "fever"}
