"""Held-out probes for issue 12, round 4: what the TARGET of a hedged statement is.

Written (own wording, never copied from a corpus) BEFORE the rules of the session that added this
script, and never edited afterwards: a fix must generalise to them. Three classes, chosen from
counts in unlabelled text (IU reports and ACI notes, report-split documents excluded; counts in
the module's ``MINED`` table):

- ``contingency``: UL5 future contingencies whose verb follows the condition ("if the cough
  persists", "if he continues to have headaches", "if her rash does not improve") and follow-up
  purposes that name a condition ("to ensure there is no underlying mass", "to make sure he does
  not have ..."). Must not touch: monitoring of measurements or known conditions ("monitor her
  blood pressure", "continue to monitor his diabetes"), lifestyle ("watch his diet"), logistics.
- ``predicate``: a hedge on a predicate adjective ("the heart appears enlarged", "the lungs may be
  hyperinflated"): the proposition is the organ in that state; the target is the finding word
  with its organ when the span can hold both, otherwise the organ ("heart") or the state
  ("enlarged") is accepted. Must not touch normal-anatomy statements ("the heart appears normal").
- ``obscured``: UL4 for a region that cannot be assessed ("the left costophrenic angle is
  obscured", "overlying soft tissue obscures the lung bases"): target = the region. Must not touch
  regions stated clear or sharp.

    .venv/bin/python benchmark/target_probes.py              # per class and total
    .venv/bin/python benchmark/target_probes.py --failures   # every probe that is wrong
"""

from __future__ import annotations

import argparse

from hedge_inventory import E, Entry, audit  # the script's own directory is on sys.path

# How often each construction occurs in the unlabelled text (2,062 documents: IU dev reports and
# ACI-BENCH notes, report-split documents excluded), counted by regular expression before building.
MINED: tuple[tuple[str, int, str], ...] = (
    ("monitor/watch/follow/track X (no 'for')", 75, "mostly measurements or known conditions: not UL5"),
    ("if X persists / worsens / continues / does not improve / develops", 34, "UL5 contingency"),
    ("to assess / evaluate X (no 'for')", 20, "mostly tests of function or progress: not a condition"),
    ("follow-up ... to document / ensure / confirm resolution", 19, "target is the earlier finding"),
    ("obscured / obscuration / obscures", 15, "UL4 for the region"),
    ("make sure / ensure (that) ... no X", 13, "UL5 when X is a condition"),
    ("appears / may be + predicate adjective", 8, "hedge on the organ's state"),
    ("X precautions", 0, "not seen in this text: left alone"),
)

ROUND4: tuple[Entry, ...] = (
    E("contingency", "if X persists / worsens / gets worse", "UL5", "paper context",
      ("If the cough persists, she will return for a chest x-ray.", ("cough",)),
      ("Call the office if the swelling gets worse.", ("swelling",)),
      ("He should come back if his back pain worsens over the weekend.", ("back pain|pain",))),
    E("contingency", "if X continues / does not improve / recurs", "UL5", "paper context",
      ("If he continues to have headaches, we will order an MRI.", ("headaches",)),
      ("If her rash does not improve, she should come back next week.", ("rash",)),
      ("We will refer her to neurology if the numbness recurs.", ("numbness",))),
    E("contingency", "to ensure / make sure there is no X", "UL5", "paper",
      ("Repeat radiograph in six weeks to ensure there is no underlying mass.", ("underlying mass",)),
      ("We will do a stress test to make sure he does not have coronary artery disease.",
       ("coronary artery disease",))),
    E("predicate", "organ appears / may be + state", "UL2", "bioscope radiology",
      ("The heart appears enlarged.", ("heart|enlarged",)),
      ("The left ventricle appears dilated on this view.", ("left ventricle|dilated",))),
    E("predicate", "organ may be / is possibly + state", "UL3", "bioscope radiology",
      ("The lungs may be hyperinflated.", ("lungs|hyperinflated",)),
      ("The aorta is possibly widened.", ("aorta|widened",)),
      ("The appendix might be inflamed.", ("appendix|inflamed",))),
    E("obscured", "region is obscured / obscuration of region", "UL4", "radiology paper",
      ("The left costophrenic angle is obscured.", ("left costophrenic angle|costophrenic angle",)),
      ("The lung bases are obscured by overlying soft tissue.", ("lung bases",)),
      ("Obscuration of the right heart border.", ("right heart border|heart border",)),
      ("Overlying hardware obscures the lung apices.", ("lung apices",)),
      ("The right hemidiaphragm is partly obscured.", ("right hemidiaphragm|hemidiaphragm",))),
)

MUST_NOT_ROUND4: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("measurement", "She will monitor her blood pressure at home.", ()),
    ("known condition", "Continue to monitor his diabetes.", ("diabetes",)),
    ("lifestyle", "He was advised to watch his diet.", ()),
    ("logistics", "If insurance does not approve it, we will try another medication.", ()),
    ("plan", "If she wants, she can start physical therapy.", ()),
    ("normal", "The heart appears normal in size.", ()),
    ("normal", "The lungs may be slightly underinflated today but are clear.", ("clear",)),
    ("normal", "The costophrenic angles are sharp.", ()),
    ("normal", "The lung bases are clear.", ()),
    ("normal", "The apices are well seen.", ()),
)


def main() -> None:
    """Print the round-4 audit per class and in total."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--failures", action="store_true", help="list every probe that is wrong")
    args = ap.parse_args()
    failures: list[str] = []
    audit(ROUND4, MUST_NOT_ROUND4, "round 4 (targets: contingencies, predicates, obscured regions)", failures)
    if args.failures:
        print("failures:")
        for f in failures:
            print("  " + f)


if __name__ == "__main__":
    main()
