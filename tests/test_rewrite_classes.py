"""Issue 11, tenth session: classes of real rewrites the scorer missed (each rule with an example)."""

from __future__ import annotations

import cuelex


def _fate(source: str, output: str, target: str) -> tuple[str, str | None]:
    report = cuelex.score(source, output, n_boot=0)
    pair = next(p for p in report.pairs if p.source.target_text == target)
    level = pair.output_level.value if pair.retained and pair.output_level is not None else "ABSENT"
    return level, pair.match.detail if pair.match is not None else None


def test_a_certainty_adjective_in_the_target_is_no_part_of_the_finding() -> None:
    """"true UTI", "actual infection": the adjective says certainty, the output may leave it out."""
    src = "She feels like this was less likely a true urinary tract infection. We discussed her labs."
    assert _fate(src, "It was less likely a urinary tract infection.", "true urinary tract infection") == (
        "HEDGED_ABSENT", "modifiers")
    assert _fate(src, "UTI felt less likely.", "true urinary tract infection")[0] == "HEDGED_ABSENT"


def test_clinic_shorthand_hedges_in_summaries() -> None:
    """Summaries keep the source's hedge in shorthand: "sx similar to", "↑ risk of", "report X"."""
    src = "The patient presents today with symptoms similar to scalp psoriasis. Clobetasol was prescribed."
    assert _fate(src, "**1. Scalp psoriasis**\n- Presents w/ sx similar to scalp psoriasis.", "scalp psoriasis")[0] == "UL2"
    src = "Ashley is at higher risk of hypertension and proteinuria, which will need to be followed annually."
    assert _fate(src, "- ↑ risk of HTN and proteinuria → annual UA and BP checks.", "proteinuria")[0] == "UL5"
    src = "If she has any recurrent symptoms, she will let me know. I encouraged her to report any recurrence."
    assert _fate(src, "No further injections; pt to report recurrence.", "recurrence")[0] == "UL5"


def test_keeping_track_of_a_finding_is_monitoring() -> None:
    src = "PLAN: Obtain bilateral breast photos today to monitor scarring. Continue scar gel."
    assert _fate(src, "We will take photos of both breasts today to keep track of the scarring.", "scarring")[0] == "UL5"


def test_a_numbered_heading_reads_the_body_that_names_its_finding_by_a_synonym() -> None:
    """"1. **Kidney stone** (3rd episode) – sx c/w nephrolithiasis": the heading asserts nothing;
    the body's hedged synonym (same vocabulary concept) is the statement."""
    src = "Patient presents today with symptoms consistent with kidney stones. Oxycodone was given."
    out = "1. **Kidney stone** (3rd episode) – sx c/w nephrolithiasis. Oxycodone PRN.\n2. **HTN** – stable."
    report = cuelex.score(src, out, n_boot=0)
    pair = next(p for p in report.pairs if p.source.target_text == "kidney stones")
    assert pair.output_level.value == "UL2" and pair.level_source == "heading_body"
    assert pair.level_ambiguous


def test_an_evidence_noun_target_is_found_by_its_finding() -> None:
    """"no concerning symptoms of prostate cancer" is about prostate cancer: the output may name
    the finding alone ("didn't show anything worrying for prostate cancer", UL1 from its empty
    negated head) or with other evidence words ("no signs of prostate cancer")."""
    src = "The patient was advised that there were no concerning symptoms of prostate cancer on his exam today."
    target = "concerning symptoms of prostate cancer"
    assert _fate(src, "Your exam didn't show anything worrying for prostate cancer.", target) == ("UL1", "evidence")
    assert _fate(src, "No signs of prostate cancer on exam.", target)[0] == "UL1"
    assert _fate(src, "Your prostate is slightly enlarged.", target)[0] == "ABSENT"


def test_headaches_is_the_plural_of_headache() -> None:
    """"-aches" plurals keep their "e" ("headaches" → "headache"), so "tension headaches" is found."""
    from cuelex.concepts.normalize import singular

    assert [singular(w) for w in ("headaches", "backaches", "approaches", "beaches", "matches")] == [
        "headache", "backache", "approach", "beach", "match"]
    src = "Patient presents with symptoms similar to a tension headache."
    assert _fate(src, "Your headaches seem to be tension headaches.", "tension headache") == ("UL2", "form")


def test_a_heading_reads_a_body_that_names_a_kind_of_its_finding() -> None:
    """"**R ankle sprain** – exam/XR c/w lateral ankle sprain": the body names a kind of the
    heading's finding with a hedge, and the heading asserts nothing."""
    src = "Her symptoms are consistent with a right ankle sprain of the lateral ligament complex."
    out = "**R ankle sprain (lateral ligament complex, ATFL)** – exam/XR c/w lateral ankle sprain.\n- Aircast."
    assert _fate(src, out, "right ankle sprain of the lateral ligament complex")[0] == "UL2"
