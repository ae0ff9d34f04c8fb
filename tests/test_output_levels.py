"""Reading the level of an output mention as LLMs write it: a negation over a whole list whose
items hold their own "or", a bare negation before a predicate in telegraphic summaries, a negated
"anything" statement, and a patient's raised chance of something (issue 11, "reading the output")."""

from __future__ import annotations

import pytest

from cuelex.scoring import score


def _level(source: str, output: str, target: str) -> str:
    r = score(source, output, n_boot=0)
    (p,) = [p for p in r.pairs if p.source.target_text == target]
    assert p.retained, (target, output)
    return p.output_level.value


@pytest.mark.parametrize(
    ("source", "output", "target", "level"),
    [
        # one negation over a list whose items hold their own "or" or a gloss
        ("No pneumothorax or adenopathy.",
         "There are no signs of infection (pneumonia), fluid in or around the lungs, a collapsed lung, or swollen lymph nodes.",
         "pneumothorax", "UL1"),
        ("No pneumothorax or adenopathy.",
         "The X-ray did not show fluid in or around the lungs, a collapsed lung, or swollen lymph nodes.",
         "adenopathy", "UL1"),
        ("No nodules or masses.", "There is no fluid on or near the lungs, a collapsed lung, or any lumps or growths.",
         "masses", "UL1"),
        ("No pneumothorax.", "The X-ray did not show any fluid in or around the lungs, and a collapsed lung was not seen either.",
         "pneumothorax", "UL1"),
        # ... but not across a clause break: the alternatives keep their hedge
        ("Atelectasis or pneumonia.", "There is no fluid, but there may be a partly collapsed lung or pneumonia.",
         "pneumonia", "UL3"),
        ("Atelectasis or pneumonia.", "No fluid around the lungs. Partly collapsed lung or pneumonia.",
         "pneumonia", "UL3"),
        ("Atelectasis or pneumonia.", "No fluid in or around the lungs; atelectasis or pneumonia at the base.",
         "pneumonia", "UL3"),
        # a bare negation before a predicate (telegraphic summaries)
        ("The heart is not enlarged.", "Heart not enlarged; lungs clear.", "enlarged", "UL1"),
        # the degree adverb stays in the negated target (rules/targets.yaml degree_adverbs)
        ("The heart is not significantly enlarged.", "- Heart not significantly enlarged; mediastinum normal.", "significantly enlarged", "UL1"),
        ("The aorta is not dilated.", "Aorta not dilated, stable.", "dilated", "UL1"),
        ("The heart is not enlarged.", "Heart enlarged; lungs clear.", "enlarged", "ASSERTED"),
        # a negated "anything" statement answers a general finding
        ("No acute cardiopulmonary abnormality.",
         "Your chest X-ray did not show anything urgent or worrying in your heart or lungs.",
         "acute cardiopulmonary abnormality", "UL1"),
        ("No acute cardiopulmonary abnormality.", "The scan didn't find anything serious in your heart or lungs.",
         "acute cardiopulmonary abnormality", "UL1"),
        ("No acute cardiopulmonary abnormality.", "There is a serious problem with your heart and lungs.",
         "acute cardiopulmonary abnormality", "ASSERTED"),
        # a negation written as a label before a list governs the list on its line
        ("No focal consolidation, pleural effusion, or pneumothorax.",
         "- **No signs of:** an area of infection (consolidation), fluid around the lungs (pleural effusion), or a collapsed lung (pneumothorax)",
         "pneumothorax", "UL1"),
        ("No pleural effusion.", "Negative for: pleural effusion, pneumothorax.", "pleural effusion", "UL1"),
        ("No pneumothorax.", "Your heart looks normal.\n- **No signs of:** fluid around the lungs or a collapsed lung (pneumothorax).",
         "pneumothorax", "UL1"),
        ("Possible pleural effusion.", "**Findings:** possible pleural effusion.", "pleural effusion", "UL3"),
        ("Possible pleural effusion.", "No signs of: pneumonia.\nThere may be fluid around the lungs.", "pleural effusion", "UL3"),
        # "not a new problem" opens a general statement with its negation
        ("No acute cardiopulmonary abnormality.", "These changes have been there a while and are not a new problem.",
         "acute cardiopulmonary abnormality", "UL1"),
        ("No acute cardiopulmonary abnormality.", "This is a new problem in your lungs.",
         "acute cardiopulmonary abnormality", "ASSERTED"),
        # a leaning toward something not happening is hedged absence, not a hard negative
        ("Another seizure is unlikely.", "It is likely that you won't have another seizure.", "seizure", "HEDGED_ABSENT"),
        ("Another seizure is unlikely.", "You will not have another seizure.", "seizure", "UL1"),
        # a patient's raised chance of something is watched for (UL5)
        ("He is at increased risk of dehydration.", "There is a higher chance of getting dehydrated.", "dehydration", "UL5"),
        ("He is at increased risk of dehydration.", "This medicine raises your risk of becoming dehydrated.", "dehydration", "UL5"),
        ("He is at increased risk of dehydration.", "You are more likely to get dehydrated.", "dehydration", "UL5"),
        ("He is at increased risk of dehydration.", "You are dehydrated.", "dehydration", "ASSERTED"),
    ],
)
def test_output_level(source, output, target, level):
    assert _level(source, output, target) == level


@pytest.mark.parametrize(
    ("source", "output", "target"),
    [
        ("Possible pneumonia.", "Whether or not pneumonia is present is unclear.", "pneumonia"),
        ("Possible pneumonia.", "No fever, and pneumonia is possible.", "pneumonia"),
        ("Possible pneumonia.", "There is no fluid. Pneumonia or a partly collapsed lung.", "pneumonia"),
        ("Possible pneumonia.", "Not only pneumonia but also fluid was seen.", "pneumonia"),
    ],
)
def test_negation_does_not_reach_past_its_list(source, output, target):
    assert _level(source, output, target) != "UL1"
