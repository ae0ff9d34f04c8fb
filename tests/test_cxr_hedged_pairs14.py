"""Hedged pairs in chest X-ray wording (issue 12, fourteenth session): classes found among the tune
half's false and missed hedged pairs and in the unseen IU reports (counts only), each with what it
must not touch. Every sentence is the project's own wording (the IU licence forbids copies).
"""

from __future__ import annotations

import pytest

import cuelex


def _pairs(text: str) -> dict[str, tuple[str, str]]:
    """target text -> (level, rule id)"""
    return {p.target_text: (p.level.value, p.rule_id) for p in cuelex.extract(text)}


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a slash between two words for one finding names it twice (notalt.slash_near_synonyms)
        ("Tortuosity/unfolding of the thoracic aorta, unchanged from the prior film.", {}),
        ("The left apical opacity probably represents chronic fibrosis/scar.", {"chronic fibrosis/scar": "UL2"}),
        ("Hyperinflation consistent with emphysema/COPD.", {"emphysema/COPD": "UL2"}),
        # ... but two different findings are still alternatives (alt.slash)
        ("Mild atelectasis/scarring at the left base.", {"Mild atelectasis": "UL3", "scarring": "UL3"}),
        ("Patchy opacity, atelectasis/fibrosis.", {"atelectasis": "UL3", "fibrosis": "UL3"}),
        # ectasia (widening) and tortuosity are two findings, not one named twice (session 15)
        ("Aortic ectasia/tortuosity, unchanged from the prior film.", {"Aortic ectasia": "UL3", "tortuosity": "UL3"}),
        ("Mild ectasia/tortuosity of the thoracic aorta.", {"Mild ectasia": "UL3", "tortuosity of the thoracic aorta": "UL3"}),
    ],
)
def test_slash_between_near_synonyms_is_one_finding(text: str, kept: dict[str, str]) -> None:
    assert {t: lv for t, (lv, _) in _pairs(text).items()} == kept


@pytest.mark.parametrize(
    "text",
    [
        # a normal state names no finding, whatever hedges or limits it (rules/targets.yaml non_targets)
        # (the redacted region leaves the normal state as the only words after the cue)
        "Limited evaluation of the XXXX, grossly intact.",
        "The visualized osseous structures appear to be grossly unremarkable.",
    ],
)
def test_a_normal_state_is_no_hedged_target(text: str) -> None:
    assert _pairs(text) == {}


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # ... and an adverb before a finding still leaves the finding
        ("Grossly enlarged heart is likely.", "enlarged heart", "UL2"),
        ("No grossly displaced rib fracture.", "displaced rib fracture", "UL1"),
        ("Possible Ebstein anomaly.", "Ebstein anomaly", "UL3"),
    ],
)
def test_an_adverb_before_a_finding_keeps_the_pair(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == level


@pytest.mark.parametrize(
    ("text", "target", "level", "rule"),
    [
        # the evaluation of a region made the subject of "is limited" (ul4.evaluation_of_limited)
        ("Evaluation of the upper thoracic vertebral bodies is limited by overlapping soft tissue.",
         "upper thoracic vertebral bodies", "UL4", "ul4.evaluation_of_limited"),
        ("Assessment of the retrocardiac region is somewhat limited owing to body habitus.",
         "retrocardiac region", "UL4", "ul4.evaluation_of_limited"),
        ("Evaluation of the lung bases is markedly limited.", "lung bases", "UL4", "ul4.evaluation_of_limited"),
        # the passive "not determined" is an open question, not a negation (ul4.not_determined)
        ("The age of the compression deformity was not determined.", "age of the compression deformity",
         "UL4", "ul4.not_determined"),
        ("The cause of the pleural thickening has not yet been determined.", "cause of the pleural thickening",
         "UL4", "ul4.not_determined"),
        # "as" opening a reason clause ends the scope of the cue before it (term.as_clause), so the
        # clause's own cue reads its subject
        ("Correlate for possible asbestos exposure as asbestos-related pleural disease could have this appearance.",
         "asbestos-related pleural disease", "UL3", "ul3.could_have_this_appearance"),
        ("Consider possible aspiration as aspiration pneumonitis may look like this.",
         "aspiration", "UL3", "ul3.possible"),
    ],
)
def test_indeterminate_and_reason_clause_wording(text: str, target: str, level: str, rule: str) -> None:
    assert _pairs(text).get(target) == (level, rule), _pairs(text)


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        # not a limited evaluation: the verb is another one
        ("Evaluation of the heart is unremarkable.", "heart"),
        ("Evaluation of the lungs shows no consolidation and the study is limited.", "lungs"),
        # a generic head alone names no finding
        ("Right basilar nodule, stable; etiology not determined.", "etiology"),
        ("Right basilar nodule, stable; etiology not determined.", "determined"),
    ],
)
def test_what_the_new_ul4_cues_leave_alone(text: str, absent: str) -> None:
    assert absent not in _pairs(text), _pairs(text)


@pytest.mark.parametrize(
    ("text", "target", "level"),
    [
        # "such as", "as well as" are no clause: the cue still reaches past them
        ("Likely atelectasis as well as a small effusion.", "small effusion", "UL2"),
        ("No pneumothorax as the apices are clear.", "pneumothorax", "UL1"),
    ],
)
def test_as_that_opens_no_clause_ends_no_scope(text: str, target: str, level: str) -> None:
    assert _pairs(text).get(target, (None,))[0] == level, _pairs(text)


@pytest.mark.parametrize(
    ("text", "target", "rule"),
    [
        # the organ as the subject of "borderline in size" (ul4.borderline_in_size)
        ("The heart is borderline in size.", "heart", "ul4.borderline_in_size"),
        ("The cardiac silhouette is borderline size.", "cardiac silhouette", "ul4.borderline_in_size"),
        # ... the forward reading unchanged
        ("Borderline cardiomegaly.", "cardiomegaly", "ul4.borderline"),
    ],
)
def test_borderline_in_size_takes_the_organ(text: str, target: str, rule: str) -> None:
    assert _pairs(text).get(target) == ("UL4", rule), _pairs(text)
    assert "size" not in _pairs(text)


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # words that name no finding (rules/targets.yaml non_targets, non_target_heads, strip_leading)
        ("Dr. Jones was notified of the indeterminate nodule and acknowledged receipt of the finding.",
         {"nodule": "UL4"}),
        ("The appearance XXXX scarring or atelectasis.", {"scarring": "UL3", "atelectasis": "UL3"}),
        # a first alternative that names no finding leaves the other reading
        ("Possibly related to technical factors or early edema.", {"early edema": "UL3"}),
        ("May be due to technique or a small effusion.", {"small effusion": "UL3"}),
        # ... while a finding word with them is kept
        ("Possible technical artifact.", {"technical artifact": "UL3"}),
    ],
)
def test_targets_that_name_no_finding(text: str, kept: dict[str, str]) -> None:
    assert {t: lv for t, (lv, _) in _pairs(text).items()} == kept
