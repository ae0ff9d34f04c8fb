"""Lay-vocabulary coverage of alignment: are the frequent targets findable in lay words?

Run from the repository root (offline; about half a minute):
    .venv/bin/python benchmark/lay_coverage.py [--top 150] [--missing]

1. Targets: ``cuelex.extract`` over the texts cuelex meets, the IU chest X-ray reports
   (``../shared/data/eval/iu_cxr_dev.jsonl``, findings + impression; read in place, never copied)
   and the embedded ACI-BENCH notes (``cuelex/data/aci_bench_notes.jsonl``). Targets are grouped by
   the concept the aligner gives them (the whole target, else its head), or by their normal words
   when they name none; groups are ranked by frequency.
2. Lay wordings: ``PROBES`` below holds, for the commonest concepts, sentences in the words a
   patient-friendly LLM rewrite uses for them (written for this measurement; never text of the IU
   reports or of the development set). A probe is *found* when ``Aligner().find(target, sentence)``
   matches a span that shares a word with the probe's lay wording. A group without probes is one whose own word is everyday
   language (pain, fever, cough) or that a rewrite drops as a whole. A target with no probes of its
   own concept takes those of its head's concept ("rotator cuff tendinopathy": tendinopathy).
   ``HELD_BACK`` lists lay wordings left out of the lay-term file on purpose (they may name more
   than one finding); they are counted and marked ~.
The table printed is frequency, the group's commonest target, and each lay wording found (+) or
not found (-, or ~ when held back); the last line is the coverage over the top groups.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict

import evalcommon as ec

import cuelex
from cuelex.align import Aligner, normal_words

IU = ec.ROOT.parent / "shared" / "data" / "eval" / "iu_cxr_dev.jsonl"
ACI = ec.ROOT / "cuelex" / "data" / "aci_bench_notes.jsonl"

#: concept term -> (lay phrase, a sentence of a patient-friendly rewrite that holds it)
PROBES: dict[str, list[tuple[str, str]]] = {
    "pneumothorax": [
        ("collapsed lung", "There is no collapsed lung."),
        ("air around the lung", "We saw no air around your lung."),
        ("air leak", "There is no air leak from the lung."),
    ],
    "pleural effusion": [
        ("fluid around the lungs", "There is no fluid around your lungs."),
        ("fluid around the lung", "A little fluid may be collecting around the left lung."),
        ("fluid on the lungs", "There is no fluid on the lungs."),
        ("fluid between the lung and the chest wall", "There is no fluid between the lung and the chest wall."),
    ],
    "acute cardiopulmonary abnormality": [
        ("problems with your heart or lungs", "The X-ray showed no problems with your heart or lungs."),
        ("heart or lung problem", "There was no sign of a heart or lung problem."),
    ],
    "consolidation": [
        ("cloudy area", "There are no cloudy areas in the lungs."),
        ("area of cloudiness", "There is no area of cloudiness."),
        ("dense area", "There may be a dense area in the right lung."),
    ],
    "focal airspace disease": [
        ("cloudy area", "No cloudy areas were seen in your lungs."),
        ("hazy area", "There are no hazy areas in the lungs."),
    ],
    "pneumonia": [
        ("lung infection", "You may have a lung infection."),
        ("infection in the lungs", "There is no sign of infection in the lungs."),
        ("chest infection", "This is most likely a chest infection."),
    ],
    "pulmonary edema": [
        ("fluid in the lungs", "There is no fluid in your lungs."),
        ("fluid buildup in the lungs", "There is no fluid buildup in the lungs."),
        ("water in the lungs", "There is no water in the lungs."),
    ],
    "masses": [
        ("lump", "We saw no lumps in your lungs."),
        ("growth", "There is no growth in the lung."),
        ("tumor", "There is no tumor."),
    ],
    "atelectasis": [
        ("partly collapsed lung", "There is probably a small area of partly collapsed lung."),
        ("not fully inflated", "The bottom of your lung is probably not fully inflated."),
        ("collapsed area", "There is a small collapsed area at the base of the lung."),
        ("deflated", "A small part of the lung may be deflated."),
    ],
    "edema": [
        ("swelling", "There is no swelling in your legs."),
        ("fluid buildup", "There is no fluid buildup."),
        ("puffiness", "There is no puffiness in your ankles."),
    ],
    "nodules": [
        ("spot on the lung", "There may be a spot on the lung."),
        ("spots", "We saw no spots on your lungs."),
        ("small growth", "There are no small growths in your lungs."),
    ],
    "shortness of breath": [
        ("trouble breathing", "You have had trouble breathing."),
        ("short of breath", "You felt short of breath."),
        ("difficulty breathing", "You had difficulty breathing."),
        ("breathlessness", "You have some breathlessness on the stairs."),
    ],
    "acute bony abnormality": [
        ("problem with the bones", "There were no sudden problems with the bones."),
        ("broken bones", "There are no broken bones."),
        ("bone problem", "No bone problem was seen."),
    ],
    "infiltrate": [
        ("hazy area", "There is no hazy area in the lungs."),
        ("cloudy area", "There may be a cloudy area in the lower right lung."),
    ],
    "scarring": [
        ("scar tissue", "This may be scar tissue."),
        ("scarred", "The top of the lung may be scarred."),
    ],
    "fever": [
        ("high temperature", "You did not have a high temperature."),
        ("temperature", "You have not had a temperature."),
    ],
    "adenopathy": [
        ("swollen lymph nodes", "There are no swollen lymph nodes."),
        ("enlarged lymph nodes", "There are no enlarged lymph nodes."),
        ("swollen glands", "Your glands are not swollen."),
    ],
    "chills": [("shivering", "You have had no shivering.")],
    "wheezes": [("whistling sound", "We heard no whistling sound when you breathed.")],
    "rales": [("crackles", "We heard no crackles in the lungs."), ("crackling", "There was no crackling sound in your lungs.")],
    "rhonchi": [("rattling", "There was no rattling sound in your chest.")],
    "murmurs": [("heart murmur", "There is no heart murmur."), ("extra sound", "We heard no extra sounds in your heart.")],
    "numbness": [("lost feeling", "You have not lost feeling in your fingers.")],
    "vomiting": [("throwing up", "You have not been throwing up."), ("been sick", "You have been sick to your stomach.")],
    "nausea": [("feeling sick", "You have been feeling sick to your stomach."), ("queasy", "You have felt queasy.")],
    "fracture": [
        ("broken bone", "There is no broken bone."),
        ("break", "There is no break."),
        ("crack in the bone", "There is no crack in the bone."),
    ],
    "rib fracture": [("broken rib", "There are no broken ribs."), ("cracked rib", "You might have a cracked rib.")],
    "abdominal pain": [("belly pain", "You have had belly pain."), ("stomach pain", "You have had stomach pain."), ("tummy pain", "You had tummy pain.")],
    "free intraperitoneal air": [("air in the belly", "There is no air in your belly."), ("air under the diaphragm", "There is no air under the diaphragm.")],
    "emphysema": [("damaged air sacs", "This suggests damaged air sacs in the lungs.")],
    "opacity": [
        ("hazy area", "There is a hazy area in the lower right lung."),
        ("shadow", "There may be a shadow in the upper lung."),
        ("cloudy spot", "There is a cloudy spot in the left lung."),
    ],
    "tenderness": [("sore to the touch", "Your belly is not sore to the touch."), ("sore when pressed", "The area is sore when pressed.")],
    "diarrhea": [("loose stools", "You have had loose stools."), ("runny stools", "You have had runny stools.")],
    "swelling": [("swollen", "Your ankle is swollen.")],
    "granulomatous disease": [("old infection", "These changes fit with an old infection."), ("healed infection", "This is probably from an old, healed infection.")],
    "thyromegaly": [("enlarged thyroid", "There is no enlarged thyroid."), ("swollen thyroid", "Your thyroid is not swollen.")],
    "tuberculosis": [("TB", "There are no signs of TB.")],
    "mediastinal widening": [("widened middle of the chest", "The middle of your chest is not widened.")],
    "headaches": [("head hurts", "Your head hurts.")],
    "copd": [("chronic lung disease", "This may be a chronic lung disease."), ("long-term lung disease", "This suggests a long-term lung disease.")],
    "hematochezia": [("blood in the stool", "You have had blood in your stool."), ("bloody stool", "You noticed bloody stools.")],
    "cardiomegaly": [
        ("enlarged heart", "You have a mildly enlarged heart."),
        ("heart is bigger than normal", "Your heart is bigger than normal."),
        ("heart is a normal size", "Your heart is a normal size."),
    ],
    "guarding": [("tensing the belly", "You were not tensing your belly when we pressed on it.")],
    "cough": [("coughing", "You have been coughing.")],
    "dislocation": [("out of place", "No joint is out of place."), ("out of joint", "Your shoulder is not out of joint.")],
    "metastatic disease": [("cancer spread", "There is no sign of cancer spread."), ("cancer has spread", "There is no sign the cancer has spread.")],
    "heart failure": [("heart is not pumping well", "Your heart may not be pumping well."), ("weak heart", "You may have a weak heart.")],
    "jugular venous distention": [("swollen neck veins", "Your neck veins are not swollen."), ("bulging neck veins", "There are no bulging neck veins.")],
    "ecchymosis": [("bruising", "There is no bruising."), ("bruise", "You have a bruise on your arm.")],
    "erythema": [("redness", "There is no redness of the skin."), ("red skin", "The skin is not red.")],
    "fibrosis": [("lung scarring", "You probably have lung scarring."), ("scarring of the lungs", "There may be scarring of the lungs.")],
    "dizziness": [("dizzy", "You have felt dizzy.")],
    "hematuria": [("blood in the urine", "You have had blood in your urine."), ("blood in your pee", "You have seen blood in your pee.")],
    "osteomyelitis": [("bone infection", "A bone infection cannot be ruled out."), ("infection in the bone", "There may be an infection in the bone.")],
    "pericardial effusion": [("fluid around the heart", "There is no fluid around your heart.")],
    "air trapping": [("trapped air", "There may be some trapped air in the lungs.")],
    "constipation": [("constipated", "You have been constipated."), ("trouble passing stool", "You have had trouble passing stool.")],
    "tendinopathy": [
        ("tendon irritation", "This is probably tendon irritation."),
        ("irritated tendon", "The pain likely comes from an irritated tendon in your shoulder."),
        ("tendon damage", "There may be some tendon damage."),
        ("tendon problem", "This is likely a tendon problem."),
        ("inflamed tendon", "You likely have an inflamed tendon."),
        ("irritation of the tendons", "This is probably irritation of the tendons."),
        ("wear of the tendons", "There is likely some wear of the tendons in your shoulder."),
    ],
    "hydronephrosis": [("swollen kidney", "You may have a swollen kidney."), ("swelling of the kidney", "We cannot rule out swelling of the kidney.")],
    "rash": [("skin rash", "You have a skin rash.")],
    "lightheadedness": [("lightheaded", "You have felt lightheaded."), ("light-headed", "You felt light-headed when standing.")],
    "aspiration": [("food or liquid going into the lungs", "There may be food or liquid going into the lungs."), ("breathed food into the lungs", "You may have breathed food into the lungs.")],
    "pneumonitis": [("lung inflammation", "You may have lung inflammation."), ("inflammation of the lungs", "There may be inflammation of the lungs.")],
    "syncope": [("fainted", "You may have fainted."), ("passed out", "You passed out.")],
    "calf tenderness": [("sore calf", "Your calf is not sore."), ("calf is tender", "Your calf is not tender.")],
    "joint pain": [("achy joints", "You have had achy joints."), ("sore joints", "You have sore joints.")],
    "cervical lymphadenopathy": [("swollen glands in the neck", "You have swollen glands in your neck."), ("swollen lymph nodes in the neck", "There are swollen lymph nodes in your neck.")],
    "pleural thickening": [("thickened lining of the lung", "The lining of your lung may be thickened.")],
    "hiatal hernia": [("stomach pushing up into the chest", "Part of your stomach may be pushing up into your chest.")],
    "granuloma": [("calcified spot", "There is a small calcified spot in the left lung."), ("calcium deposit", "There is a small calcium deposit in the lung.")],
    "pneumomediastinum": [("air in the middle of the chest", "There is no air in the middle of the chest.")],
    "deep vein thrombosis": [
        ("blood clot in the leg", "We need to check for a blood clot in your leg."),
        ("blood clot in your calf", "There is no blood clot in your calf."),
        ("clot in the calf", "A clot in the calf cannot be ruled out."),
        ("blood clot in a deep vein", "We want to check for a blood clot in a deep vein of your leg."),
    ],
    "pulmonary embolism": [("blood clot in the lungs", "There is no blood clot in your lungs."), ("clot in the lung", "The scan showed no clot in the lung.")],
    "pulmonary density": [("dense spot", "There may be a dense spot in the lung.")],
    "infection": [("infection", "There are no signs of infection.")],
    "weight loss": [("lost weight", "You have lost weight."), ("losing weight", "You have been losing weight.")],
    "hypertension": [("high blood pressure", "You probably have high blood pressure.")],
    "tingling": [("pins and needles", "You have had pins and needles in your fingers.")],
    "melena": [("black stools", "You noticed black stools."), ("tarry stools", "You have had dark, tarry stools.")],
    "dysphagia": [("trouble swallowing", "You have trouble swallowing.")],
    "dysuria": [
        ("pain when urinating", "You have had pain when urinating."),
        ("burning with urination", "You have had no burning with urination."),
    ],
    "palpitations": [("fluttering in the chest", "You sometimes feel a fluttering in your chest."), ("pounding heartbeat", "You noticed a pounding heartbeat.")],
    "fatigue": [("tired", "You have been feeling tired.")],
    "cellulitis": [("skin infection", "You may have a skin infection.")],
    "joint effusion": [("fluid in the joint", "There is some fluid in the joint.")],
    "carotid bruits": [("whooshing sound in the neck", "The doctor heard no whooshing sound in your neck.")],
    "gallops": [("extra heart sound", "We heard no extra heart sounds.")],
}


#: Lay wordings left out of the lay-term file on purpose: each may name more than one finding (a
#: wrong match makes a dropped hedge look retained), or is too loose to name any. Marked ~.
HELD_BACK = frozenset(
    {
        "air leak",  # a chest-tube or surgical air leak as much as a pneumothorax
        "water in the lungs",  # said of pleural effusion as well as of pulmonary edema
        "temperature",  # "your temperature was normal" is no fever
        "extra sound",  # a gallop or a rub as much as a murmur
        "extra heart sound",  # a murmur or a rub as much as a gallop
        "been sick",  # ill in general, or vomiting
        "tendon damage",  # a weak paraphrase of tendinopathy, never for a target naming its own site
        "tendon problem",  # the same
        "small growth",  # a mass as much as a nodule: a weak paraphrase only
        "wear of the tendons",  # wear and tear of any part of a joint
        "swelling",  # edema's lay word; never pulmonary edema's
        "puffiness",  # the same
    }
)


def texts() -> list[str]:
    """The findings + impression of each IU report, then each ACI-BENCH note."""
    if not IU.is_file():
        raise SystemExit(f"{IU} not found: the IU reports are read in place from ../shared")
    out = []
    for line in IU.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out.append(" ".join(x for x in (r.get("findings"), r.get("impression")) if x))
    for line in ACI.read_text(encoding="utf-8").splitlines():
        out.append(json.loads(line)["text"])
    return out


def groups(aligner: Aligner) -> list[tuple[int, str, Counter[str]]]:
    """Target groups by concept (else normal words), commonest first: (count, key, targets)."""
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for t in texts():
        for p in cuelex.extract(t):
            target = p.target_text.lower()
            found = aligner._target_concepts(target, None)
            key = found[0][0] if found else " ".join(normal_words(target))
            by[key][target] += 1
    ranked = [(sum(c.values()), k, c) for k, c in by.items()]
    return sorted(ranked, key=lambda r: (-r[0], r[1]))


def probe_key(aligner: Aligner, term: str) -> str:
    found = aligner._target_concepts(term, None)
    return found[0][0] if found else " ".join(normal_words(term))


def found(aligner: Aligner, target: str, lay: str, sentence: str) -> bool:
    """The target is matched in the sentence, on the lay wording (the match shares a word with it;
    the sentence may inflect or reorder it: "your glands are not swollen")."""
    m = aligner.find(target, sentence)
    return m is not None and bool(set(normal_words(m.text)) & set(normal_words(lay)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=150, help="how many target groups")
    ap.add_argument("--missing", action="store_true", help="print only groups with a lay wording not found")
    args = ap.parse_args(argv)
    aligner = Aligner()
    probes: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
    for term, rows in PROBES.items():
        for lay, sentence in rows:
            probes[probe_key(aligner, term)].append((term, lay, sentence))
    n_ok = n_all = g_ok = g_all = n_held = 0
    for count, _key, targets in groups(aligner)[: args.top]:
        top = targets.most_common(1)[0][0]
        cells = []
        # the probes of the concept the target names, else those of its head's concept
        named = aligner._target_concepts(top, None)
        keys = [c for c, how in named if how == "exact"] + [c for c, how in named if how != "exact"]
        keys.append(probe_key(aligner, top))
        rows = next((probes[k] for k in keys if probes.get(k)), [])
        for _term, lay, sentence in rows:
            ok = found(aligner, top, lay, sentence)
            n_ok += ok
            n_all += 1
            n_held += not ok and lay in HELD_BACK
            cells.append(("+" if ok else "-" if lay not in HELD_BACK else "~") + lay)
        if cells:
            g_all += 1
            g_ok += all(c.startswith("+") for c in cells)
        if args.missing and not any(c.startswith("-") for c in cells):
            continue
        print(f"{count:5d}  {top:<40.40}  {'; '.join(cells) if cells else '(no lay probe)'}")
    print(
        f"lay wordings found: {n_ok}/{n_all} ({100 * n_ok / max(n_all, 1):.0f}%); target groups with "
        f"every lay wording found: {g_ok}/{g_all} (of the top {args.top} groups); not found and held "
        f"back on purpose (~): {n_held}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
