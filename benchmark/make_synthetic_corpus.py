"""Write a synthetic MIMIC-IV-Note-shaped corpus for scale measurements (no patient data).

    .venv/bin/python benchmark/make_synthetic_corpus.py --notes 100000 --out build/synthetic

writes ``discharge.csv.gz`` and ``radiology.csv.gz`` with MIMIC-IV-Note's columns (note_id,
subject_id, hadm_id, note_type, note_seq, charttime, storetime, text). The split follows
MIMIC-IV-Note (331,794 discharge summaries and 2,321,355 radiology reports: 12.5 % discharge).
Notes are assembled from sentence templates: hedged, negated and plain clinical statements over a
list of findings, so every uncertainty level occurs, in the section layout of the real notes.
Lengths: discharge summaries of about 1,000 words (700–1,400) with a hospital course of about 375
words; radiology reports of about 100 words (55–155), findings about 65 and impression about 14
words. Deterministic for a seed.

Repetition. Filled templates alone repeat far more than real notes (in a 100,000-note corpus only
1–3 % of the sentences were distinct), and cuelex memoises per sentence, so such a corpus measures
the memo more than the extraction. With ``repetition`` (a :class:`Repetition` per note kind) the
body sentences follow a Pitman–Yor process instead: sentence ``n + 1`` of a file is a new sentence
with probability ``(theta + discount * K) / (theta + n)`` (``K`` distinct so far), else a copy of
an earlier one drawn in proportion to its count less the discount. New sentences are filled
templates with extra detail (side, time course, size, place) until they differ from every earlier
one. This is the heavy-tailed pattern of real text: a few sentences ("No pneumothorax.") recur
everywhere, most occur once, and the share of sentences seen before grows with the corpus the way
it does in real notes (``K`` grows like ``n ** discount``). ``benchmark/bench_scale.py`` fits the
two numbers per kind to the shared real corpora (IU chest X-ray reports for radiology, ACI-BENCH
notes for discharge summaries) so that the synthetic notes repeat as much as those do at their size.
"""

from __future__ import annotations

import argparse
import csv
import gzip
import random
import time
from collections.abc import Callable
from pathlib import Path

MIMIC_DISCHARGE = 331_794
MIMIC_RADIOLOGY = 2_321_355
COLUMNS = [
    "note_id",
    "subject_id",
    "hadm_id",
    "note_type",
    "note_seq",
    "charttime",
    "storetime",
    "text",
]

FINDINGS = [
    "pneumonia", "atelectasis", "pleural effusion", "pneumothorax", "pulmonary embolism", "pulmonary edema",
    "cardiomegaly", "congestive heart failure", "myocardial infarction", "urinary tract infection", "sepsis",
    "cholecystitis", "appendicitis", "pancreatitis", "diverticulitis", "small bowel obstruction", "deep vein thrombosis",
    "intracranial hemorrhage", "stroke", "fracture", "osteomyelitis", "cellulitis", "abscess", "lymphadenopathy",
    "hepatic steatosis", "cirrhosis", "ascites", "hydronephrosis", "nephrolithiasis", "malignancy", "metastatic disease",
    "aortic dissection", "aspiration", "bronchitis", "COPD exacerbation", "anemia", "acute kidney injury",
    "hypokalemia", "delirium", "encephalopathy", "PNA", "CHF", "PE", "UTI", "DVT", "AKI",
]  # fmt: skip
ORGANS = ["right lower lobe", "left lower lobe", "right upper lobe", "lingula", "left kidney", "liver", "pancreatic head",
          "adrenal gland", "thyroid", "spleen", "gallbladder", "left basal ganglia"]  # fmt: skip
LESIONS = ["nodule", "opacity", "hypodensity", "lesion", "consolidation", "mass", "cyst", "density"]

CUED = {
    "UL1": ["No evidence of {f}.", "No {f}.", "Negative for {f}.", "The patient denies symptoms of {f}.",
            "{F} was ruled out.", "There is no {f} or {g}.", "Free of {f}."],
    "HEDGED_ABSENT": ["{F} is unlikely.", "Low suspicion for {f}.", "{F} is less likely."],
    "UL2": ["Likely {f}.", "Findings are consistent with {f}.", "Probable {f}.", "{F}, likely.",
            "Suggestive of {f}.", "Findings favor {f}."],
    "UL3": ["Possible {f}.", "{F} cannot be excluded.", "This may represent {f}.", "Concern for {f}.",
            "{F} versus {g}.", "Atelectasis or {f}.", "Could be {f}."],
    "UL4": ["Indeterminate {o} {l}.", "The {o} {l} is indeterminate.", "Equivocal for {f}.",
            "Significance of the {o} {l} is unclear.", "Nondiagnostic study for {f}."],
    "UL5": ["Rule out {f}.", "CT to evaluate for {f}.", "Follow-up imaging to assess for {f}.", "? {f}.",
            "Monitor for {f}.", "Workup for {f} was sent.", "r/o {f}."],
}  # fmt: skip
PLAIN = [
    "The patient was started on {drug} with improvement.", "Vital signs remained stable.",
    "The patient tolerated a regular diet.", "{F} was treated with {drug}.", "Labs were notable for a creatinine of {n}.",
    "Physical therapy evaluated the patient.", "The patient was seen by the {svc} service.",
    "Home medications were continued.", "The patient ambulated without difficulty.", "{F} improved over the admission.",
    "Blood pressure was controlled on home regimen.", "The patient remained afebrile.",
]  # fmt: skip
DRUGS = [
    "ceftriaxone",
    "vancomycin",
    "furosemide",
    "heparin",
    "metoprolol",
    "insulin",
    "prednisone",
    "azithromycin",
]
SERVICES = [
    "cardiology",
    "nephrology",
    "infectious disease",
    "surgery",
    "gastroenterology",
    "neurology",
]
EXAMS = ["CHEST (PA AND LAT)", "CHEST (PORTABLE AP)", "CT ABD & PELVIS WITH CONTRAST", "CT HEAD W/O CONTRAST",
         "CTA CHEST", "US ABD LIMIT, SINGLE ORGAN", "MR L SPINE W/O CONTRAST", "LIVER OR GALLBLADDER US"]  # fmt: skip
NORMAL = ["Heart size is normal.", "The mediastinal contours are unremarkable.", "Osseous structures are intact.",
          "The visualized bowel loops are normal in caliber.", "No acute osseous abnormality.",
          "The kidneys are normal in size.", "Vascular structures are patent.", "Soft tissues are unremarkable."]  # fmt: skip
DX_HEADERS = [
    "Discharge Diagnosis:",
    "DISCHARGE DIAGNOSES:",
    "Discharge Diagnoses:",
    "FINAL DIAGNOSES:",
    "Primary diagnosis:",
]
BHC_HEADERS = [
    "Brief Hospital Course:",
    "BRIEF HOSPITAL COURSE:",
    "Hospital Course:",
    "Brief Hospital Course by Problem:",
]
IMP_HEADERS = ["IMPRESSION:", "IMPRESSION: ", "Impression:", "IMPRESSION", "CONCLUSION:"]
FIND_HEADERS = ["FINDINGS:", "FINDINGS: ", "Findings:", "FINDINGS"]


def _fill(rng: random.Random, template: str) -> str:
    f, g = rng.sample(FINDINGS, 2)
    return template.format(
        f=f,
        g=g,
        F=f[0].upper() + f[1:],
        o=rng.choice(ORGANS),
        l=rng.choice(LESIONS),
        drug=rng.choice(DRUGS),
        n=f"{rng.uniform(0.6, 3.5):.1f}",
        svc=rng.choice(SERVICES),
    )


#: details that make a filled template a new sentence (appended before its final stop)
DETAILS = [" on the right", " on the left", " bilaterally", " at the base", " in the upper zone",
           " near the hilum", " along the fissure", " at the apex", " in the dependent portion",
           " since the prior study", " since admission", " on the day of transfer"]  # fmt: skip


class Repetition:
    """A Pitman–Yor process over the sentences of one corpus file (see the module docstring).

    ``theta`` (> -discount) and ``discount`` (in [0, 1)) are its two parameters; the state (every
    sentence drawn, with its count) lives in the object, so one object serves one file.
    """

    def __init__(self, theta: float, discount: float) -> None:
        if not 0.0 <= discount < 1.0 or theta <= -discount:
            raise ValueError(f"need 0 <= discount < 1 and theta > -discount, got {theta}, {discount}")
        self.theta = theta
        self.discount = discount
        self.distinct: list[str] = []  # each distinct sentence once, in order of first use
        self.counts: list[int] = []
        self.draws: list[int] = []  # one entry per draw: the index of the sentence drawn
        self.seen: set[str] = set()

    def draw(self, rng: random.Random, make: Callable[[], str]) -> str:
        """The next sentence: a new one from ``make`` (with detail added until it is new) or an
        earlier one."""
        n, k = len(self.draws), len(self.distinct)
        if n == 0 or rng.random() * (self.theta + n) < self.theta + self.discount * k:
            sentence = make()
            tries = 0
            while sentence in self.seen:
                sentence = _detailed(rng, make() if tries < 3 else sentence)
                tries += 1
            self.seen.add(sentence)
            self.distinct.append(sentence)
            self.counts.append(0)
            i = k
        else:
            while True:  # an earlier draw, accepted with probability (count - discount) / count
                i = self.draws[rng.randrange(n)]
                c = self.counts[i]
                if rng.random() * c < c - self.discount:
                    break
        self.counts[i] += 1
        self.draws.append(i)
        return self.distinct[i]


def _detailed(rng: random.Random, sentence: str) -> str:
    """``sentence`` with one more detail (a place, a side, a time, a size or a duration) before
    its final stop."""
    body, stop = (sentence[:-1], sentence[-1]) if sentence[-1:] in ".?" else (sentence, "")
    roll = rng.random()
    if roll < 0.6:
        detail = rng.choice(DETAILS)
    elif roll < 0.8:
        detail = f", measuring {rng.randint(2, 60) / 10:.1f} cm"
    else:
        detail = f" for {rng.randint(2, 30)} days"
    return body + detail + stop


def _sentences(
    rng: random.Random,
    n: int,
    cue_share: float,
    levels: list[str],
    repetition: Repetition | None = None,
) -> list[str]:
    out = []
    for _ in range(n):
        if rng.random() < cue_share:
            template = rng.choice(CUED[rng.choice(levels)])
        else:
            template = rng.choice(PLAIN)
        if repetition is None:
            out.append(_fill(rng, template))
        else:
            out.append(repetition.draw(rng, lambda t=template: _fill(rng, t)))
    return out


def _levels(rng: random.Random) -> list[str]:
    """The levels a note draws its cues from: like real notes, most notes use only some of them."""
    k = rng.choices([1, 2, 3, 4, 5, 6], weights=[10, 25, 30, 20, 10, 5])[0]
    return rng.sample(list(CUED), k)


def discharge_note(rng: random.Random, repetition: Repetition | None = None) -> str:
    levels = _levels(rng)
    sex = rng.choice("MF")
    hpi = " ".join(_sentences(rng, rng.randint(20, 50), 0.3, levels, repetition))
    pmh = ", ".join(rng.sample(FINDINGS, 4))
    results = "\n".join(
        f"{rng.choice(EXAMS)}: " + " ".join(_sentences(rng, 2, 0.6, levels, repetition))
        for _ in range(rng.randint(4, 12))
    )
    problems = []
    for _ in range(rng.randint(5, 14)):
        f = rng.choice(FINDINGS)
        problems.append(
            f"# {f[0].upper() + f[1:]}: "
            + " ".join(_sentences(rng, rng.randint(3, 10), 0.4, levels, repetition))
        )
    bhc = (
        rng.choice(BHC_HEADERS)
        + "\n"
        + " ".join(_sentences(rng, 3, 0.3, levels, repetition))
        + "\n"
        + "\n".join(problems)
    )
    if rng.random() < 0.6:
        bhc += "\nTRANSITIONAL ISSUES:\n- " + "\n- ".join(_sentences(rng, 3, 0.5, levels, repetition))
    ap = ""
    if rng.random() < 0.15:
        ap = (
            "ASSESSMENT AND PLAN:\n"
            + " ".join(_sentences(rng, rng.randint(3, 8), 0.5, levels, repetition))
            + "\n \n"
        )
    dx = (
        rng.choice(DX_HEADERS)
        + "\n"
        + "\n".join(
            _fill(rng, rng.choice(CUED[rng.choice(levels)] + ["{F}"]))
            for _ in range(rng.randint(2, 6))
        )
    )
    meds = "\n".join(f"{i}. {d} daily" for i, d in enumerate(rng.sample(DRUGS, 5), 1))
    exam = " ".join(rng.sample(NORMAL, 6) + _sentences(rng, rng.randint(4, 10), 0.2, levels, repetition))
    return (
        f" \nName:  ___                     Unit No:   ___\n \nAdmission Date:  ___              Discharge Date:   ___\n \n"
        f"Date of Birth:  ___             Sex:   {sex}\n \nService: MEDICINE\n \nAllergies: \n"
        f"No Known Allergies / Adverse Drug Reactions\n \nAttending: ___.\n \nChief Complaint:\n{rng.choice(FINDINGS)}\n \n"
        f"Major Surgical or Invasive Procedure:\nNone\n \nHistory of Present Illness:\n{hpi}\n \n"
        f"Past Medical History:\n{pmh}\n \nPhysical Exam:\nADMISSION PHYSICAL EXAM:\n{exam}\n \n"
        f"Pertinent Results:\n{results}\n \n{bhc}\n \n{ap}Medications on Admission:\n{meds}\n \n"
        f"Discharge Medications:\n{meds}\n \nDischarge Disposition:\nHome\n \n{dx}\n \n"
        f"Discharge Condition:\nMental Status: Clear and coherent.\nLevel of Consciousness: Alert and interactive.\n"
        f"Activity Status: Ambulatory - Independent.\n \nDischarge Instructions:\nDear ___,\n"
        + " ".join(_fill(rng, rng.choice(PLAIN)) for _ in range(rng.randint(10, 30)))
        + "\n \nFollowup Instructions:\n___\n"
    )


def radiology_note(rng: random.Random, repetition: Repetition | None = None) -> str:
    levels = _levels(rng)
    findings = " ".join(
        _sentences(rng, rng.randint(4, 14), 0.45, levels, repetition) + rng.sample(NORMAL, rng.randint(2, 6))
    )
    impression = "\n".join(
        f"{i}. {s}" for i, s in enumerate(_sentences(rng, rng.randint(1, 4), 0.8, levels, repetition), 1)
    )
    sep = "\n \n" if rng.random() < 0.7 else "\n"
    return (
        f"EXAMINATION:  {rng.choice(EXAMS)}\n \nINDICATION:  ___ year old with {rng.choice(FINDINGS)} // "
        f"? {rng.choice(FINDINGS)}\n \nTECHNIQUE:  Standard protocol.\n \nCOMPARISON:  ___\n \n"
        f"{rng.choice(FIND_HEADERS)}{sep}{findings}\n \n{rng.choice(IMP_HEADERS)}{sep}{impression}\n"
    )


def write_corpus(
    out: Path,
    notes: int,
    seed: int = 0,
    discharge_share: float | None = None,
    repetition: dict[str, tuple[float, float]] | None = None,
) -> dict[str, int]:
    """Write the two files; returns the number of notes of each kind. ``repetition`` maps a kind
    ("discharge", "radiology") to the (theta, discount) of its sentences' Pitman–Yor process (see
    the module docstring); a kind without one is filled from the templates alone."""
    share = (
        MIMIC_DISCHARGE / (MIMIC_DISCHARGE + MIMIC_RADIOLOGY)
        if discharge_share is None
        else discharge_share
    )
    n_dis = round(notes * share)
    counts = {"discharge": n_dis, "radiology": notes - n_dis}
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for kind, n in counts.items():
        params = (repetition or {}).get(kind)
        process = Repetition(*params) if params else None
        with gzip.open(
            out / f"{kind}.csv.gz", "wt", encoding="utf-8", newline="", compresslevel=5
        ) as fh:
            w = csv.writer(fh)
            w.writerow(COLUMNS)
            for i in range(n):
                subject = 10_000_000 + rng.randrange(300_000)
                if kind == "discharge":
                    nid, typ, text = f"{subject}-DS-{i}", "DS", discharge_note(rng, process)
                else:
                    nid, typ, text = f"{subject}-RR-{i}", "RR", radiology_note(rng, process)
                day = f"21{rng.randint(10, 99)}-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}"
                w.writerow(
                    [
                        nid,
                        subject,
                        20_000_000 + i,
                        typ,
                        1,
                        f"{day} 00:00:00",
                        f"{day} 12:00:00",
                        text,
                    ]
                )
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--notes", type=int, default=100_000, help="total notes (default 100,000)")
    ap.add_argument(
        "--out", default="build/synthetic", help="output folder (default build/synthetic)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--discharge-share",
        type=float,
        default=None,
        help="share of discharge summaries (default: MIMIC's 12.5 %%)",
    )
    args = ap.parse_args()
    t0 = time.perf_counter()
    counts = write_corpus(Path(args.out), args.notes, args.seed, args.discharge_share)
    print(
        f"wrote {counts['discharge']:,} discharge summaries and {counts['radiology']:,} radiology reports "
        f"to {args.out} in {time.perf_counter() - t0:.1f} s"
    )


if __name__ == "__main__":
    main()
