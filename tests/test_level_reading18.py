"""Reading the level of an output mention as the writers of rewrite batch 18 wrote it (session 18,
issue 11), in the scorer and its tables: EHR-scribe titles whose body says "c/w dx" or names them
with "R"/"L", Q&A revisions (a question heading over a list, the next list item hedging "this
condition"), table cells ("AEs (…)") and plan wording ("ordered to evaluate X", "keep track of");
and the look-alikes that must stay as they are. The examples are written for these tests, not taken
from the rewrite set. Lexicon wordings: test_level_reading18_lexicon.py."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex

@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a title's body that says "c/w dx" hedges the title's own diagnosis
        ("Her findings are consistent with plantar fasciitis.",
         "**#1 Plantar fasciitis** – hx + exam c/w dx\n- Stretching, night splint.", "plantar fasciitis", "UL2"),
        ("Her findings are consistent with plantar fasciitis.",
         "### Plantar fasciitis\n- Exam consistent with dx.\n- Night splint.", "plantar fasciitis", "UL2"),
        # side words written short in the body ("R" for "Right"); a full stop after the label's name
        ("Symptoms are consistent with a left wrist sprain.",
         "**Assessment:** Left wrist sprain.\n\n**Plan:**\n- Exam reviewed; sx c/w L wrist sprain.\n- Splint.",
         "left wrist sprain", "UL2"),
        ("Symptoms are consistent with a right hamstring strain.",
         "**Right hamstring strain**\n- Exam c/w R hamstring strain.\n- PT referral.", "right hamstring strain", "UL2"),
    ],
)
def test_title_body18(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)
    # the body's mention answers either through its title ("heading_body") or, when the alignment
    # finds the body's own wording of the target ("R hamstring strain"), as itself ("span")
    assert p.level_source in ("heading_body", "span")


def test_title_body_other_side_stays_asserted() -> None:
    # "L" in the body is another finding than the title's right one
    p = scored_pair(
        "Symptoms are consistent with a right wrist sprain.",
        "**Assessment:** Right wrist sprain.\n\n**Plan:**\n- Old injury: exam c/w L wrist sprain.\n- Splint.",
        "right wrist sprain",
    )
    assert p.output_level is not None and p.output_level.value == "ASSERTED", p.level_source


def test_anaphor_in_the_next_list_item() -> None:
    p = scored_pair(
        "Her symptoms are consistent with iliotibial band syndrome.",
        "What we found\n- Pain on the outside of your knee (iliotibial band syndrome).\n"
        "- Your exam today fits with this condition.\n\nWhat to do next\n- Stretch daily.",
        "iliotibial band syndrome",
    )
    assert p.output_level is not None and p.output_level.value == "UL2", p.level_source
    assert p.level_source == "anaphor"


def test_anaphor_not_across_a_blank_line() -> None:
    p = scored_pair(
        "Her symptoms are consistent with iliotibial band syndrome.",
        "- Pain on the outside of your knee (iliotibial band syndrome).\n\n"
        "- Your exam today fits with this condition.",
        "iliotibial band syndrome",
    )
    assert p.output_level is not None and p.output_level.value == "ASSERTED", p.level_source


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # list_lead_ins.tsv: "AEs" / "ADRs" as side effects over a parenthesised run
        ("He is at increased risk of hypothyroidism on lithium.",
         "Counseling | Lithium AEs (tremor, hypothyroidism, thirst)", "hypothyroidism", "UL5"),
        ("He is at increased risk of hypothyroidism on lithium.",
         "- Reviewed ADRs (tremor, hypothyroidism).", "hypothyroidism", "UL5"),
        # a question heading over a list is its lead-in
        ("He is at increased risk of hypothyroidism on lithium.",
         "What side effects should you look out for?\n- Shaky hands (tremor)\n- An underactive thyroid "
         "(hypothyroidism)\n", "hypothyroidism", "UL5"),
        ("Possible gastritis.",
         "What could be causing your stomach pain?\n- Gastritis\n- A stomach ulcer\n", "gastritis", "UL3"),
    ],
)
def test_lead_ins18(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


def test_question_without_lead_in_wording_gives_nothing() -> None:
    p = scored_pair(
        "Possible gastritis.",
        "How did your visit go?\n- Gastritis was found on the scope.\n",
        "gastritis",
    )
    assert p.output_level is not None and p.output_level.value == "ASSERTED", p.level_source


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # output_reading.tsv test_before rows: a direct object of "to evaluate", "keep track of"
        ("Ultrasound to evaluate for a possible Baker cyst.", "US R knee ordered to evaluate Baker cyst.",
         "Baker cyst"),
        ("MRI to evaluate for a rotator cuff tear.", "MRI R shoulder ordered to assess rotator cuff tear.",
         "rotator cuff tear"),
        ("Photos to monitor keloids.", "We took pictures to keep track of how your keloids are growing.",
         "keloids"),
        ("Photos to monitor keloids.", "Photos today; keep an eye on the keloids at home.", "keloids"),
        # output_reading.tsv test row "check": a finding named as what a check looks at
        ("Monitor for hyperkalemia.", "- Cont lisinopril; hyperkalemia recheck at the 2 wk visit.", "hyperkalemia"),
        ("Monitor for hyperkalemia.", "Plan | add spironolactone → f/u 1 wk, BMP + hyperkalemia check", "hyperkalemia"),
        ("Photos to monitor keloids.", "- Photos taken today for keloid monitoring.", "keloids"),
        ("Monitor the mole for changes.", "- Mole looks benign; re-check in 3 mo for changes.", "changes"),
    ],
)
def test_checked_objects18(source: str, output: str, target: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == "UL5", (output, p.output_level, p.level_source)


def test_surveillance_with_result_stays_a_finding() -> None:
    p = scored_pair("Possible melanoma.", "Melanoma surveillance showed a new melanoma on the back.", "melanoma")
    assert p.output_level is not None and p.output_level.value == "ASSERTED", p.level_source


def test_evaluated_with_result_stays_a_finding() -> None:
    # the clause gives the result: the finding is stated, not checked
    p = scored_pair(
        "Ultrasound to evaluate for a possible Baker cyst.",
        "The ultrasound done to evaluate the knee showed a Baker cyst.",
        "Baker cyst",
    )
    assert p.output_level is not None and p.output_level.value == "ASSERTED", p.level_source


@pytest.mark.parametrize(
    "text",
    [
        "If the cough persists → pulmonology (asthma vs reflux).",
        "If wheezing continues → allergist (asthma versus reflux) or ENT.",
    ],
)
def test_versus_in_parentheses_is_no_gloss(text: str) -> None:
    """"(X vs Y)" after a phrase offers a choice, not a second name of the phrase: each option keeps
    its own level, so the text scored against itself stays preserved."""
    r = cuelex.score(text, text, n_boot=0)
    assert all(p.fate == "preserved" for p in r.pairs), [(p.source.target_text, p.fate, p.level_source) for p in r.pairs]
