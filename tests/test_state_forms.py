"""A concept named in another grammatical form of its state word (tier ``cui``): a state noun with
"of/to/in" for the participle before the noun ("damage to the air sacs" ~ "damaged air sacs"), and
a participle before a noun for the compound ("a strained muscle" ~ "muscle strain"). Sentences are
written for these tests."""

from __future__ import annotations

import pytest

import cuelex
from cuelex.scoring.align import Aligner, _noun_of, _participle_of

ALIGNER = Aligner()


@pytest.mark.parametrize(
    ("target", "output", "anchor"),
    [
        ("emphysema", "The scan shows damage to the small air sacs of your lungs.", "damage"),
        ("muscle strain", "Your back pain is most likely a strained muscle.", "strained"),
        ("rib fracture", "You may have a fractured rib on the right.", "fractured"),
        ("ankle sprain", "This looks like a sprained ankle.", "sprained"),
    ],
)
def test_other_form_of_the_state_word_is_found(target: str, output: str, anchor: str) -> None:
    m = ALIGNER.find(target, output)
    assert m is not None and m.tier == "cui" and m.start <= output.index(anchor) < m.end, (target, m)


@pytest.mark.parametrize(
    ("target", "output"),
    [
        ("emphysema", "The storm did damage to the air filter of the car."),  # no indexed concept
        ("muscle strain", "Your heart muscle looks strained from the fast rhythm."),  # no participle before it
        ("rib fracture", "The fractured wrist is healing."),  # another bone
        ("atelectasis", "There is no collapsed lung."),  # the phrase names pneumothorax as it stands
    ],
)
def test_other_phrases_are_not_taken(target: str, output: str) -> None:
    assert ALIGNER.find(target, output) is None


def test_forms() -> None:
    assert {"damaged", "strained"} <= set(_participle_of("damage")) | set(_participle_of("strain"))
    assert "scarred" in _participle_of("scar")
    assert "swollen" in _participle_of("swelling")  # derived_forms.tsv
    assert {"strain", "fracture", "scar"} <= set(_noun_of("strained")) | set(_noun_of("fractured")) | set(_noun_of("scarred"))
    assert _noun_of("red") == ()


def test_level_of_the_other_form_is_read() -> None:
    r = cuelex.score("Findings suggest emphysema.", "This may mean damage to the air sacs in your lungs.", n_boot=0)
    p = r.pairs[0]
    assert p.retained and p.output_level is not None and p.output_level.value in ("UL2", "UL3"), r.summary()
