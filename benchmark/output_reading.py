"""Output reading coverage: does the scorer read the level an LLM output gives a target?

Run from the repository root (offline; a few seconds):
    .venv/bin/python benchmark/output_reading.py [--wrong]

LLM rewrites (patient-friendly revisions and clinician summaries) hedge, negate and defer in a
wide but finite set of ways. ``PROBES`` below is an inventory of them, written for this
measurement (never text of the IU reports or of the development set): for each level, sentences
in the words a patient-friendly rewrite ("lay") or a clinician summary ("clin") uses, each with
the target it mentions and the level the guidelines give that mention (docs/scoring.md, the fate
readers' GUIDELINES: "may be" UL3, "most likely" UL2, "hard to say whether" UL4, "watch for" UL5,
"unlikely" hedged absence, "no sign of" UL1, a plain statement ASSERTED). The lay hedges of the two
probability-word surveys (``../shared/data/probability-words/survey_summary.csv``: "very good
chance", "better than even", "chances are slight", "almost no chance" …) are among them.

Each probe is scored as ``cuelex.score("Possible <target>.", sentence)`` with the defaults: the
target must be found (else "not found", an alignment miss, not a reading error) and the output level
must equal the expected one. The table gives, per expected level and style, how many were read
right; ``--wrong`` lists each probe read wrong with the level read and how (``level_source``).
Controls (ASSERTED probes) guard against hedges read where there are none: a clause about another
thing ("the pneumonia may take weeks to clear") keeps the target asserted.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import evalcommon as ec

import cuelex

A, U1, HA, U2, U3, U4, U5 = "ASSERTED", "UL1", "HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"

#: (expected output level, style, source target, output sentence)
PROBES: list[tuple[str, str, str, str]] = [
    # ---- UL2: probable ---------------------------------------------------------------------
    (U2, "lay", "pneumonia", "This is most likely pneumonia."),
    (U2, "lay", "pneumonia", "Your cough is most likely caused by pneumonia."),
    (U2, "lay", "pneumonia", "The doctors think it is probably pneumonia."),
    (U2, "lay", "pneumonia", "Your symptoms are probably due to pneumonia."),
    (U2, "lay", "pneumonia", "There is a very good chance that this is pneumonia."),
    (U2, "lay", "pneumonia", "It is highly likely that you have pneumonia."),
    (U2, "lay", "pneumonia", "We believe this is pneumonia."),
    (U2, "lay", "pneumonia", "It looks like you have pneumonia."),
    (U2, "lay", "pneumonia", "The X-ray seems to show pneumonia."),
    (U2, "lay", "pneumonia", "This fits best with pneumonia."),
    (U2, "lay", "pneumonia", "The findings point to pneumonia."),
    (U3, "lay", "pneumonia", "Your doctor suspects pneumonia."),  # "suspect(ed)" is UL3 in the lexicons
    (U2, "lay", "heart failure", "Your swelling is most likely from heart failure."),
    (U2, "lay", "heart failure", "The shortness of breath is likely caused by heart failure."),
    (U2, "lay", "atelectasis", "The shadow is probably a small area of atelectasis."),
    (U2, "lay", "lung infection", "This is probably a lung infection."),
    (U2, "lay", "pleural effusion", "There is probably some fluid around the lungs."),
    (U2, "lay", "cardiomegaly", "Your heart is probably a bit enlarged."),
    (U2, "clin", "pneumonia", "Findings likely reflect pneumonia."),
    (U2, "clin", "pneumonia", "RLL opacity, c/w pneumonia."),
    (U2, "clin", "heart failure", "Dyspnea, likely 2/2 heart failure."),
    (U2, "clin", "heart failure", "Edema, probably from heart failure."),
    (U2, "clin", "atelectasis", "Basilar opacity favoring atelectasis."),
    (U2, "clin", "pneumonia", "Presumed pneumonia, on antibiotics."),
    (U3, "clin", "pneumonia", "Suspected pneumonia."),
    # ---- UL3: possible ---------------------------------------------------------------------
    (U3, "lay", "pneumonia", "This may be pneumonia."),
    (U3, "lay", "pneumonia", "You might have pneumonia."),
    (U3, "lay", "pneumonia", "This could be a sign of pneumonia."),
    (U3, "lay", "pneumonia", "There might be an early pneumonia."),
    (U3, "lay", "pneumonia", "Pneumonia is one possibility."),
    (U3, "lay", "pneumonia", "One possible cause is pneumonia."),
    (U3, "lay", "pneumonia", "We can't rule out pneumonia."),
    (U3, "lay", "pneumonia", "Pneumonia cannot be completely ruled out."),
    (U3, "lay", "pneumonia", "There is a chance this is pneumonia."),
    (U3, "lay", "pneumonia", "It is possible that you have pneumonia."),
    (U3, "lay", "pneumonia", "The doctors are concerned about pneumonia."),
    (U3, "lay", "pneumonia", "The doctors are worried it could be pneumonia."),
    (U3, "lay", "pneumonia", "This raises the possibility of pneumonia."),
    (U3, "lay", "pneumonia", "The cloudy area could be from pneumonia or from scarring."),
    (U3, "lay", "pneumonia", "Perhaps this is an early pneumonia."),
    (U3, "lay", "pneumonia", "Your cough may be caused by pneumonia."),
    (U3, "lay", "pneumonia", "There is about an even chance that this is pneumonia."),
    (U3, "lay", "pleural effusion", "There may be a small amount of fluid around the lungs."),
    (U3, "lay", "pneumothorax", "There could be a small collapsed lung."),
    (U3, "lay", "fracture", "You may have a broken bone in your wrist."),
    (U3, "lay", "lymphadenopathy", "Some lymph nodes may be swollen."),
    (U3, "lay", "pulmonary embolism", "A blood clot in the lungs is possible."),
    (U3, "clin", "pneumonia", "Possible early pneumonia."),
    (U3, "clin", "pneumonia", "Concern for pneumonia."),
    (U3, "clin", "pneumonia", "Atelectasis vs pneumonia."),
    (U3, "clin", "pneumonia", "Cannot exclude pneumonia."),
    (U3, "clin", "pneumonia", "Opacity may represent pneumonia."),
    (U3, "clin", "pneumonia", "Differential includes pneumonia."),
    # ---- UL4: indeterminate ----------------------------------------------------------------
    (U4, "lay", "pneumonia", "It is hard to say whether this is pneumonia."),
    (U4, "lay", "pneumonia", "We can't be sure whether this is pneumonia."),
    (U4, "lay", "pneumonia", "It is not clear if this is pneumonia."),
    (U4, "lay", "pneumonia", "It is unclear whether you have pneumonia."),
    (U4, "lay", "pneumonia", "The doctors cannot tell yet whether this is pneumonia."),
    (U4, "lay", "pneumonia", "It is too early to tell if this is pneumonia."),
    (U4, "lay", "pneumonia", "We are not sure if this is pneumonia."),
    (U4, "lay", "pneumonia", "The X-ray could not show clearly whether there is pneumonia."),
    (U4, "clin", "pneumonia", "Pneumonia indeterminate on this study."),
    (U4, "clin", "pneumonia", "Unclear if pneumonia."),
    (U4, "clin", "pneumonia", "Limited evaluation for pneumonia."),
    # ---- UL5: evaluation / contingency -----------------------------------------------------
    (U5, "lay", "pneumonia", "The doctor wants to check for pneumonia."),
    (U5, "lay", "pneumonia", "We will do a test to make sure it isn't pneumonia."),
    (U5, "lay", "pneumonia", "More tests are needed to rule out pneumonia."),
    (U5, "lay", "pneumonia", "We will look for signs of pneumonia on the next X-ray."),
    (U5, "lay", "fever", "If you develop a fever, call your doctor."),
    (U5, "lay", "fever", "Call us if you get a fever."),
    (U5, "lay", "fever", "Come back right away if you have a fever."),
    (U5, "lay", "fever", "Watch for a fever."),
    (U5, "lay", "fever", "Let us know if a fever starts."),
    (U5, "lay", "chest pain", "Go to the emergency room if you have chest pain."),
    (U5, "lay", "bleeding", "Keep an eye out for any bleeding."),
    (U5, "lay", "infection", "We will watch closely for signs of infection."),
    (U5, "lay", "pneumonia", "A follow-up X-ray will check whether there is pneumonia."),
    (U5, "clin", "pneumonia", "Eval for pneumonia."),
    (U5, "clin", "pneumonia", "R/o pneumonia."),
    (U5, "clin", "fever", "Return if febrile."),
    (U5, "clin", "bleeding", "Monitor for bleeding."),
    (U5, "clin", "pneumonia", "Repeat CXR to exclude pneumonia."),
    # ---- HEDGED_ABSENT ---------------------------------------------------------------------
    (HA, "lay", "pneumonia", "Pneumonia is unlikely."),
    (HA, "lay", "pneumonia", "This is probably not pneumonia."),
    (HA, "lay", "pneumonia", "The doctors doubt that this is pneumonia."),
    (HA, "lay", "pneumonia", "The chances are slight that this is pneumonia."),
    (HA, "lay", "pneumonia", "There is little chance that this is pneumonia."),
    (HA, "lay", "pneumonia", "It is highly unlikely that you have pneumonia."),
    (HA, "lay", "pneumonia", "There is almost no chance that this is pneumonia."),
    (HA, "lay", "pneumonia", "It does not seem to be pneumonia."),
    (HA, "lay", "pneumonia", "Pneumonia is less likely."),
    (HA, "lay", "pneumonia", "It is not likely to be pneumonia."),
    (HA, "clin", "pneumonia", "Pneumonia not favored."),
    (HA, "clin", "pneumonia", "Low suspicion for pneumonia."),
    # ---- UL1: certain absence --------------------------------------------------------------
    (U1, "lay", "pneumonia", "There's no sign of pneumonia."),
    (U1, "lay", "pneumonia", "The X-ray doesn't show any pneumonia."),
    (U1, "lay", "pneumonia", "There is nothing to suggest pneumonia."),
    (U1, "lay", "pneumonia", "The X-ray did not show pneumonia."),
    (U1, "lay", "pneumonia", "You do not have pneumonia."),
    (U1, "lay", "pneumonia", "We found no pneumonia."),
    (U1, "lay", "pneumonia", "Pneumonia was ruled out."),
    (U1, "lay", "pneumonia", "There are no signs of pneumonia."),
    (U1, "lay", "pneumonia", "No pneumonia was seen."),
    (U1, "lay", "pneumonia", "Pneumonia was not seen."),
    (U1, "lay", "pneumonia", "The scan showed no evidence of pneumonia."),
    (U1, "lay", "pneumonia", "Good news: there is no pneumonia."),
    (U1, "lay", "pleural effusion", "There is no fluid around your lungs."),
    (U1, "lay", "pleural effusion", "We did not see any fluid around the lungs."),
    (U1, "lay", "pneumothorax", "Your lung is not collapsed."),
    (U1, "lay", "pneumothorax", "There is no collapsed lung."),
    (U1, "lay", "fracture", "There are no broken bones."),
    (U1, "lay", "fracture", "None of your bones are broken."),
    (U1, "lay", "cardiomegaly", "Your heart is not enlarged."),
    (U1, "lay", "cardiomegaly", "Your heart is a normal size."),
    (U1, "lay", "pulmonary embolism", "The scan found no blood clots in your lungs."),
    (U1, "lay", "fever", "You have not had a fever."),
    (U1, "lay", "fever", "You haven't had any fever."),
    (U1, "clin", "pneumonia", "No pneumonia."),
    (U1, "clin", "pneumonia", "Negative for pneumonia."),
    (U1, "clin", "pneumothorax", "No PTX or effusion."),
    (U1, "clin", "pleural effusion", "No PTX or effusion."),
    (U1, "clin", "cardiomegaly", "Heart not enlarged."),
    (U1, "clin", "fever", "Afebrile, denies fever."),
    # ---- ASSERTED: controls ----------------------------------------------------------------
    (A, "lay", "pneumonia", "You have pneumonia."),
    (A, "lay", "pneumonia", "The X-ray shows pneumonia."),
    (A, "lay", "pneumonia", "The pneumonia may take a few weeks to clear."),
    (A, "lay", "pneumonia", "Your pneumonia is being treated with antibiotics, which may upset your stomach."),
    (A, "lay", "pneumonia", "You have pneumonia, and you might feel tired for a while."),
    (A, "lay", "pneumonia", "Because you have pneumonia, you may need oxygen."),
    (A, "lay", "pneumonia", "The cough is caused by pneumonia."),
    (A, "lay", "pleural effusion", "There is some fluid around the lungs that may need to be drained."),
    (A, "lay", "cardiomegaly", "Your heart is enlarged, which could make you tired."),
    (A, "lay", "fracture", "You have a broken rib; it should heal on its own."),
    (A, "lay", "pneumonia", "The doctors are sure this is pneumonia."),
    (A, "clin", "pneumonia", "Pneumonia, improving."),
    (A, "clin", "pneumonia", "RLL pneumonia; may need repeat CXR."),
    (A, "clin", "heart failure", "Dyspnea due to heart failure."),
    # ---- longer sentences as LLM rewrites write them -----------------------------------------
    (U2, "lay", "pericarditis", "Your chest pain is most likely caused by irritation of the lining around the heart (pericarditis)."),
    (U2, "lay", "heart failure", "The swelling in your legs is probably due to heart failure."),
    (U2, "lay", "viral infection", "This is likely from a viral infection, and it should get better on its own."),
    (U2, "lay", "pneumonia", "Most likely, this is pneumonia."),
    (U2, "lay", "pneumonia", "It appears that you have pneumonia."),
    (U2, "lay", "pneumonia", "It seems you have pneumonia."),
    (U2, "lay", "pneumonia", "The X-ray suggests you have pneumonia."),
    (U2, "lay", "urinary tract infection", "Your test results suggest a urinary tract infection."),
    (U2, "lay", "pneumonia", "The most likely explanation is pneumonia."),
    (U2, "lay", "pneumonia", "The most likely cause of your cough is pneumonia."),
    (U2, "lay", "scarring", "Doctors believe the spot is probably scarring."),
    (U3, "lay", "pneumonia", "The X-ray shows a hazy area that could be pneumonia."),
    (U3, "lay", "pleural effusion", "There might be a small amount of fluid around your lungs, or this could be scarring."),
    (U3, "lay", "pneumonia", "Your symptoms could be caused by pneumonia or by a blood clot."),
    (U3, "lay", "infection", "Something in the lower part of your lung might be an infection."),
    (U3, "lay", "pneumonia", "It may be an early sign of pneumonia."),
    (U3, "lay", "fracture", "It's possible there is a small break in the rib."),
    (U3, "lay", "pneumonia", "Pneumonia can't be completely excluded."),
    (U3, "lay", "fracture", "We cannot completely rule out a small fracture."),
    (U3, "lay", "infection", "An infection is a possibility."),
    (U3, "lay", "pneumonia", "There is some concern for pneumonia."),
    (U3, "lay", "pneumonia", "The doctors are considering pneumonia."),
    (U4, "lay", "pneumonia", "It is not yet known whether this is pneumonia."),
    (U4, "lay", "pneumonia", "The X-ray was not clear enough to tell if there is pneumonia."),
    (U4, "lay", "pneumonia", "It is uncertain whether you have pneumonia."),
    (U5, "lay", "pulmonary embolism", "Your doctor ordered a CT scan to look for a blood clot in your lungs."),
    (U5, "lay", "infection", "You will have blood tests to see if you have an infection."),
    (U5, "lay", "swelling", "If you notice more swelling, call your doctor."),
    (U5, "lay", "infection", "Watch out for signs of infection."),
    (U5, "lay", "chest pain", "Please come back if you start having chest pain."),
    (U5, "lay", "bleeding", "Tell your doctor if you have any bleeding."),
    (U5, "lay", "pulmonary embolism", "The doctor wants to make sure you don't have a blood clot in your lungs."),
    (HA, "lay", "pulmonary embolism", "A blood clot in the lungs is not likely."),
    (HA, "lay", "pneumonia", "Doctors don't think this is pneumonia."),
    (HA, "lay", "pneumonia", "It doesn't look like pneumonia."),
    (HA, "lay", "pneumonia", "Pneumonia seems unlikely."),
    (HA, "lay", "fracture", "It is probably not a fracture."),
    (HA, "lay", "cancer", "This is unlikely to be cancer."),
    (U1, "lay", "infection", "There's no sign of infection in your lungs."),
    (U1, "lay", "pneumonia", "Your lungs show no signs of pneumonia."),
    (U1, "lay", "fracture", "There was no evidence of a broken bone."),
    (U1, "lay", "pleural effusion", "The X-ray didn't show any fluid around your lungs."),
    (U1, "lay", "pneumonia", "We didn't find any pneumonia."),
    (U1, "lay", "pneumonia", "Your lungs are clear, with no pneumonia."),
    (U1, "lay", "pneumonia", "No fluid, no collapsed lung, and no pneumonia."),
    (U1, "lay", "pleural effusion", "You do not have a collapsed lung or fluid around your lungs."),
    (U1, "lay", "pneumonia", "Nothing suggests pneumonia."),
    (U1, "lay", "fracture", "There's nothing to suggest a broken bone."),
    (U1, "lay", "pneumonia", "Thankfully, pneumonia was not found."),
    (U1, "lay", "pulmonary embolism", "The scan did not find any blood clots in your lungs."),
    (U1, "lay", "pneumonia", "Pneumonia has been ruled out."),
    (U1, "lay", "fracture", "No broken ribs were seen."),
    (A, "lay", "pneumonia", "You have pneumonia, which may be why you feel tired."),
    (A, "lay", "pneumonia", "The pneumonia might take a few weeks to go away."),
    (A, "lay", "pneumonia", "Because of the pneumonia, you may feel short of breath."),
    (A, "lay", "cardiomegaly", "You have an enlarged heart; we may need to do an ultrasound."),
    (A, "lay", "pneumonia", "The X-ray shows pneumonia, but there is no fluid around the lungs."),
    (A, "lay", "pneumonia", "We will treat your pneumonia, and if you develop a fever, call us."),
    (A, "lay", "pneumonia", "Your pneumonia is likely to improve with antibiotics."),
    (A, "lay", "pneumonia", "It is important that you take antibiotics for your pneumonia."),
    (A, "lay", "pneumonia", "Your doctor thinks you should rest while the pneumonia heals."),
    (A, "lay", "pneumonia", "You were treated for pneumonia."),
    # ---- clinician shorthand (written after the rounds above, before running) -----------------
    (U5, "clin", "pneumonia", "?PNA"),  # GUIDELINES: "?" is a query, UL5
    (U3, "clin", "pneumonia", "RLL opacity - PNA vs atelectasis."),
    (U3, "clin", "pneumonia", "RLL opacity, c/f PNA."),
    (U3, "clin", "pneumonia", "Opacity concerning for pneumonia."),
    (U3, "clin", "pulmonary embolism", "Cannot r/o PE."),
    (U3, "clin", "pneumonia", "DDx: pneumonia, aspiration, atelectasis."),
    (U3, "clin", "pneumonia", "Questionable early pneumonia."),
    (U2, "clin", "pneumonia", "Favor pneumonia over atelectasis."),
    (U2, "clin", "pneumonia", "Likely viral pneumonia."),
    (U2, "clin", "pneumonia", "Presumed CAP (pneumonia), started ceftriaxone."),
    (U5, "clin", "pulmonary embolism", "CTA to r/o PE."),
    (U5, "clin", "pneumonia", "F/u CXR in 6 wks to eval for pneumonia."),
    (U5, "clin", "pneumonia", "W/u for pneumonia pending."),
    (U5, "clin", "fever", "Return precautions: fever, worsening SOB."),
    (HA, "clin", "pneumonia", "Doubt pneumonia."),
    (HA, "clin", "pneumonia", "PNA less likely."),
    (HA, "clin", "pulmonary embolism", "PE unlikely given normal D-dimer."),
    (U1, "clin", "pneumonia", "No e/o pneumonia."),
    (U1, "clin", "pleural effusion", "No effusion/PTX."),
    (U1, "clin", "pneumothorax", "Neg for PTX."),
    (U1, "clin", "fever", "Afebrile; no fevers or chills."),
    (U1, "clin", "fracture", "No acute fx."),
    (U4, "clin", "pneumonia", "PNA vs atelectasis, indeterminate."),
    (U4, "clin", "nodule", "Nodule of uncertain significance."),
    (A, "clin", "pneumonia", "RLL PNA, on abx, improving."),
    (A, "clin", "pneumonia", "PNA - likely to resolve with abx."),
    (A, "clin", "pneumonia", "Dx: pneumonia."),
]


#: Precision: (source, output sentence) where the output does NOT mention the source's target,
#: though it uses its words for something else (another site, advice, prevention, a medicine, the
#: patient's past, an organ alone). Each must come out "not found".
ABSENT = "not found"
ABSENT_PROBES: list[tuple[str, str, str]] = [
    ("Possible nodule in the right lung.", "nodule", "You have a small lump in your thyroid."),
    ("Possible pleural effusion.", "pleural effusion", "Drink plenty of fluids."),
    ("Possible pleural effusion.", "pleural effusion", "There is some fluid in your knee joint."),
    ("Possible pneumonia.", "pneumonia", "You should get a pneumonia shot this fall."),
    ("Possible infection.", "infection", "Wash your hands often to prevent infection."),
    ("Possible kidney stone.", "kidney stone", "Drinking more water can help prevent kidney stones."),
    ("Possible cardiomegaly.", "cardiomegaly", "Your heart rhythm is regular."),
    ("No pneumothorax.", "pneumothorax", "Your lungs are clear."),
    ("Possible atelectasis.", "atelectasis", "Take deep breaths to keep your lungs open."),
    ("No fever.", "fever", "Take a fever reducer such as acetaminophen for pain."),
    ("Possible recurrent pneumonia.", "recurrent pneumonia", "You had pneumonia last year."),
    ("Possible DVT.", "DVT", "Blood thinners help prevent clots after surgery."),
    ("Possible fracture of the left wrist.", "fracture", "You broke your ankle two years ago."),
    ("Possible heart failure.", "heart failure", "Your heart is working hard when you climb stairs."),
    ("Possible pulmonary embolism.", "pulmonary embolism", "We will give you medicine to prevent blood clots in your legs."),
    ("No pericardial effusion.", "pericardial effusion", "There is no fluid around your lungs."),
    ("Possible mass.", "mass", "Your body mass index is 31."),
    ("Possible stroke.", "stroke", "Stroke education was given to your family."),
    ("No edema.", "edema", "Keep your legs raised to avoid swelling after the cast comes off."),
    ("Possible osteomyelitis.", "osteomyelitis", "The bone scan is scheduled for Monday."),
    # written after the guards above, before running them
    ("Possible pneumonia.", "pneumonia", "Ask about the pneumonia vaccine at your next visit."),
    ("Possible gout.", "gout", "Avoid foods that can trigger gout, like red meat."),
    ("Possible UTI.", "UTI", "Drinking cranberry juice won't prevent a UTI."),
    ("Possible fracture.", "fracture", "You fractured your wrist in 2015."),
    ("No blood clot.", "blood clot", "You will take a blood thinner to prevent a blood clot."),
    ("Possible infection.", "infection", "Keep the wound clean and dry to avoid an infection."),
    ("Possible asthma.", "asthma", "Your sister has asthma too."),
    ("Possible heart attack.", "heart attack", "Your father had a heart attack years ago."),
    ("Possible anemia.", "anemia", "Eat iron-rich foods to help prevent anemia."),
    ("Possible sinus infection.", "sinus infection", "A saline rinse may help you avoid a sinus infection."),
    ("Possible pneumonia.", "pneumonia", "You were treated for pneumonia as a child."),
    ("Possible ulcer.", "ulcer", "Taking ibuprofen with food can reduce the risk of an ulcer."),
]


def read(target: str, sentence: str) -> tuple[str, str]:
    """(output level or "not found", how it was read) of the target in the sentence."""
    r = cuelex.score(f"Possible {target}.", sentence, n_boot=0)
    pairs = [p for p in r.pairs if p.source.target_text.lower() == target.lower()] or r.pairs
    if not pairs:
        return "no source pair", ""
    p = pairs[0]
    if p.output_level is None:
        return "not found", ""
    return p.output_level.value, f"{p.level_source} {p.output_cue.text if p.output_cue else '-'!r} on {p.match.text!r}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wrong", action="store_true", help="list the probes read wrong")
    args = ap.parse_args(argv)
    ec.silence_logging()
    right: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    missing: Counter[tuple[str, str]] = Counter()
    wrong = []
    for level, style, target, sentence in PROBES:
        got, how = read(target, sentence)
        total[level, style] += 1
        if got == level:
            right[level, style] += 1
        elif got in ("not found", "no source pair"):
            missing[level, style] += 1
            wrong.append((level, style, target, sentence, got, how))
        else:
            wrong.append((level, style, target, sentence, got, how))
    n_absent = 0
    for source, target, sentence in ABSENT_PROBES:
        r = cuelex.score(source, sentence, n_boot=0)
        kept = [p for p in r.pairs if p.source.target_text.lower() == target.lower() and p.retained]
        n_absent += not kept
        if kept:
            wrong.append((ABSENT, "lay", target, sentence, kept[0].output_level.value,
                          f"{kept[0].match.tier}/{kept[0].match.detail} on {kept[0].match.text!r}"))
    print("| expected level | lay: read right | clinician: read right | not found |")
    print("| --- | --- | --- | --- |")
    for level in (U2, U3, U4, U5, HA, U1, A):
        cells = [f"{right[level, s]}/{total[level, s]}" for s in ("lay", "clin")]
        print(f"| {level} | {cells[0]} | {cells[1]} | {missing[level, 'lay'] + missing[level, 'clin']} |")
    n = sum(total.values())
    ok = sum(right.values())
    print(f"read right: {ok}/{n} ({100 * ok / n:.0f}%)")
    print(f"absent targets left absent: {n_absent}/{len(ABSENT_PROBES)}")
    if args.wrong:
        for level, style, target, sentence, got, how in wrong:
            print(f"  [{style}] {level:<13} got {got:<13} {target!r}: {sentence!r}  {how}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
