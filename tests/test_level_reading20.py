"""Reading the level of an output mention as the writers of rewrite batch 20 wrote it (session 20,
issue 11): SBAR summaries and "What we found" letters write a differential as bare problem items
whose level comes after the name ("- Gout possible (tophus on the toe)", "- Meningitis: low
suspicion (supple neck)", "- Migraine, sinusitis unlikely (…)", "- Reflux possible contributor"),
close a workup item with its verdict ("- MI (main concern): ECG nl, trop neg x2 → ruled out"), list
negated findings after a bare "no" or "never had", and put the hedge in a phrase before the name
("we are worried about a condition called …"). Every such item takes that level; the look-alikes
stay as they are. The examples are written for these tests, not taken from the rewrite set."""

from __future__ import annotations

import pytest
from _helpers import scored_pair

import cuelex
from cuelex.scoring import scorer


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # a postposed hedge followed by its reason in parentheses
        ("Possible gout.", "- Gout possible (tophus on the left toe)", "gout", "UL3"),
        ("Appendicitis is unlikely.", "- Appendicitis unlikely (no RLQ tenderness) – no CT", "Appendicitis", "HEDGED_ABSENT"),
        ("Cholecystitis is less likely.", "- cholecystitis felt less likely (normal LFTs). Recheck in AM.",
         "Cholecystitis", "HEDGED_ABSENT"),
        # a label-colon item whose value is a low suspicion or a negative verdict
        ("Meningitis is unlikely.", "- Meningitis: low suspicion (supple neck, afebrile)", "Meningitis", "HEDGED_ABSENT"),
        ("Pneumothorax is unlikely.", "- **Pneumothorax** — pretest probability low", "Pneumothorax", "HEDGED_ABSENT"),
        ("No evidence of lupus.", "- Lupus: not suggested (complement normal)", "lupus", "UL1"),
        ("Pneumothorax was ruled out.", "- Pneumothorax: ruled out", "Pneumothorax", "UL1"),
        # a hedge before a role noun
        ("Dehydration is likely.", "- Dehydration likely contributor", "Dehydration", "UL2"),
        ("Possible reflux.", "- Reflux possible cause (worse lying flat)", "reflux", "UL3"),
        # "concern" written after the name
        ("Concern for sepsis.", "- Sepsis primary concern → blood cultures x2", "sepsis", "UL3"),
        ("Concern for lymphoma.", "- Patient aware of lymphoma concern; biopsy Monday", "lymphoma", "UL3"),
        # every item of a bare list the hedge closes
        ("Migraine and sinusitis are unlikely.", "- Migraine, sinusitis unlikely (no aura, no congestion)",
         "Migraine", "HEDGED_ABSENT"),
        ("Abscess, osteomyelitis and gout are not suspected.", "- Abscess, osteomyelitis, gout – not suspected",
         "osteomyelitis", "HEDGED_ABSENT"),
        # a negated list after a bare "no" or "never had"
        ("No pleural effusion or pneumothorax.", "- CXR: no effusion or PTX", "pneumothorax", "UL1"),
        ("She has no hives, wheezing, or vomiting.", "You never had hives, wheezing from your chest, or vomiting.",
         "wheezing", "UL1"),
        ("She has no seizures.", "She has never had a seizure.", "seizures", "UL1"),
        # a workup still to be done after the name, or a rule-out closing its label
        ("Endocarditis must be evaluated.", "- Endocarditis — needs eval (new murmur); echo today", "Endocarditis", "UL5"),
        ("Rule out appendicitis.", "- **Appendicitis r/o**: US nondiagnostic → CT tonight", "appendicitis", "UL5"),
        # a likelihood frame around the name: its degree is the level
        ("Lyme disease is likely.", "Given the rash and the tick bite, the chance that you have Lyme disease is high.",
         "Lyme disease", "UL2"),
        ("Appendicitis is unlikely.", "- Pretest probability of appendicitis low; discharge", "Appendicitis", "HEDGED_ABSENT"),
        # a hedge phrase right before the name
        ("Possible appendicitis.", "Your pain makes us worried about a condition called appendicitis.",
         "appendicitis", "UL3"),
        ("Likely viral infection.", "- Fevers felt to reflect a viral infection; resolved by day 3.",
         "viral infection", "UL2"),
    ],
)
def test_the_level_written_around_the_name_is_read(source: str, output: str, target: str, level: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value == level, (output, p.output_level, p.level_source)


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        # the hedge is on another item or the cause, not on the list
        ("Fever is possible.", "- Fever, cough improving, pneumonia likely", "Fever"),
        ("Cystitis is possible.", "- Cystitis, etiology unclear.", "Cystitis"),
        # an arrow to a plan, not a verdict
        ("Possible pulmonary embolism.", "- Pulmonary embolism: Wells 0 → CTA not done", "pulmonary embolism"),
        # a risk of a future event is no likelihood of the finding now
        ("Possible stroke.", "Your risk of stroke is high if you stop the blood thinner.", "stroke"),
        # a forward cue that opens what follows, not a label
        ("Rule out gout.", "- Gout r/o septic arthritis", "gout"),
        # "no fever" does not reach a finding after it without a closing "or"
        ("Wheezing is possible.", "No fever, wheezing for 2 days.", "Wheezing"),
    ],
)
def test_look_alikes_keep_their_reading(source: str, output: str, target: str) -> None:
    p = scored_pair(source, output, target)
    assert p.output_level is not None and p.output_level.value not in ("UL2", "UL3", "HEDGED_ABSENT"), (
        output, p.output_level, p.level_source,
    )


def test_a_negated_worry_is_no_concern() -> None:
    p = scored_pair("Possible appendicitis.", "We are not worried about appendicitis.", "appendicitis")
    assert p.output_level is not None and p.output_level.value != "UL3", (p.output_level, p.level_source)


def test_a_verdict_and_a_hedge_on_one_label_answer_both_statements() -> None:
    # the item says the main concern and its verdict: each source statement is kept at its own level
    output = "- MI (main concern): ECG nl, trop neg x2 → ruled out"
    assert scored_pair("MI was the main concern.", output, "MI").output_level.value == "UL3"
    assert scored_pair("MI was ruled out.", output, "MI").output_level.value == "UL1"
    assert scored_pair("Stroke was ruled out.", "- Stroke: CT and MRI nl → neg", "Stroke").output_level.value == "UL1"


def test_the_new_roles_come_from_the_table() -> None:
    rows = scorer.output_reading()
    assert rows["after_ul1"] and rows["after_ha"] and rows["before_ul2"] and rows["before_ul3"] and rows["after_check"]
    levels = {lv.value for lv, _pat in scorer._before_patterns()}
    assert levels == {"UL2", "UL3"}


@pytest.mark.parametrize(
    "text",
    [
        "- Gout possible (tophus on the left toe)\n- Meningitis: low suspicion (supple neck)",
        "- Migraine, sinusitis unlikely (no aura)\n- MI (main concern): ECG nl → ruled out",
        "CXR: no effusion or PTX. You never had hives, wheezing, or vomiting.",
        "Your pain makes us worried about a condition called appendicitis. Reflux possible cause.",
    ],
)
def test_these_texts_scored_against_themselves_keep_every_level(text: str) -> None:
    r = cuelex.score(text, text, n_boot=0)
    assert all(p.fate == "preserved" for p in r.pairs), [(p.source.target_text, p.fate) for p in r.pairs]
