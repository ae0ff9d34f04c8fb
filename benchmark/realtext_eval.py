"""Source-pair accuracy on real text: cuelex.extract against blind gold pairs, per level.

Documents: ``benchmark/data/realtext/documents.jsonl`` (IU chest X-ray reports read from
``../shared``, ACI-BENCH assessment/plan sections); gold: ``gold_pairs.jsonl`` (how it was made:
``docs/accuracy.md``). Tune rules on ``--split tune`` only; ``--split report`` is the number the
docs quote. Error rows are printed for the tune half (``--errors`` forces them elsewhere).

    .venv/bin/python benchmark/realtext_eval.py --split tune
    .venv/bin/python benchmark/realtext_eval.py --split report --write-docs
    .venv/bin/python benchmark/realtext_eval.py --split report --annotators G3,G4,G5   # a subset
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from pathlib import Path

import yaml

from realtext_docs import load_documents, tune_fold
from realtext_gold import GOLD_FILE, LEVELS, load_gold, match, target_right, write_block

import cuelex

HEDGED = {"UL2", "UL3", "UL4", "UL5"}
_CONNECTIVES = {"or", "versus", "vs", "vs.", "/", "and/or"}
DOCS_PAGE = Path(__file__).resolve().parent.parent / "docs" / "accuracy.md"
_ROOT = Path(__file__).resolve().parent.parent
#: Causes of a missed gold pair and of a false (unmatched) cuelex pair, in the order they are tested.
MISS_CAUSES = ("no cue in the lexicons", "cue matched, no pair kept", "cue found, other target", "wrong level")
FALSE_CAUSES = ("plan, not a proposition", "non-clinical target", "scope", "clinical target, no gold pair")
#: A cuelex pair whose target matches a gold pair of another level: false at its own level.
WRONG_LEVEL = "gold pair at another level"
_AGENTS = {"we", "i", "you", "us", "he", "she", "they"}
#: Kinds of the target of a false pair, in the order they are tested (:func:`target_kind`).
TARGET_KINDS = ("drug/medication", "procedure/test", "general advice", "body part", "symptom", "diagnosis",
                "non-clinical word")
#: Words and name endings of drugs and their forms ("ibuprofen", "lisinopril", "the medication"),
#: for counting only: the engine's own list of non-target heads does not name drugs one by one.
_DRUG_WORDS = frozenset({
    "medication", "medications", "medicine", "medicines", "drug", "drugs", "pill", "pills", "tablet", "tablets",
    "capsule", "capsules", "dose", "doses", "dosage", "mg", "inhaler", "inhalers", "cream", "creams", "ointment",
    "thinner", "thinners", "anticoagulants", "supplement", "supplements", "antibiotic", "antibiotics", "steroid",
    "steroids", "insulin", "tylenol", "advil", "motrin", "aleve", "aspirin", "prednisone", "colchicine",
    "naltrexone", "norvasc", "vitamin", "shot", "shots", "vaccine", "vaccines", "injection", "injections"})
_DRUG_ENDINGS = ("pril", "sartan", "olol", "statin", "cillin", "mycin", "azole", "prazole", "tidine", "formin",
                 "gliptin", "profen", "oxacin", "cycline", "dipine", "zepam", "zolam", "semide", "thiazide",
                 "mab", "nib", "pentin", "gabalin", "triptan", "oxetine", "aline", "afil", "lukast", "terol", "sone", "olone")
#: Body-site words beyond the lay-parts anatomy rows (limbs and joints of clinic notes).
_BODY_WORDS = frozenset({
    "knee", "knees", "elbow", "elbows", "shoulder", "shoulders", "hip", "hips", "ankle", "ankles", "wrist",
    "wrists", "hand", "hands", "foot", "feet", "leg", "legs", "arm", "arms", "back", "neck", "head", "chest",
    "abdomen", "finger", "fingers", "toe", "toes", "nerve", "nerves", "tendon", "tendons", "ligament",
    "ligaments", "muscle", "muscles", "joint", "joints", "skin", "eye", "eyes", "ear", "ears", "spine", "disc",
    "bone", "bones", "vessel", "vessels", "artery", "vein", "lung", "lungs", "heart", "kidney", "kidneys", "liver"})
_PATIENT_WORDS = frozenset({"he", "she", "his", "her", "him", "hers", "patient", "pt", "mr", "mr.", "mrs",
                            "mrs.", "ms", "ms.", "they", "their", "them"})
_ADVICE_LEVELS = frozenset({"UL5"})


@functools.lru_cache(maxsize=1)
def _plan_words() -> tuple[frozenset[str], tuple[str, ...]]:
    """Words that make a target a test, treatment, visit or provider, and procedure-name endings.

    Read from the project's own lists (``rules/targets.yaml`` non_target_heads and
    procedure_suffixes, ``cuelex/data/semantic_nonfinding.tsv``); here a word ANYWHERE in the
    target counts, where the engine looks at the head only, so the class is not empty by design.
    """
    rules = yaml.safe_load((_ROOT / "rules" / "targets.yaml").read_text(encoding="utf-8"))
    words = {w.lower() for w in rules["non_target_heads"]}
    for line in (_ROOT / "cuelex" / "data" / "semantic_nonfinding.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        if line and not line.startswith("#") and not line.startswith("word\t"):
            words.add(line.split("\t", 1)[0].lower())
    return frozenset(words), tuple(rules["procedure_suffixes"])


def false_cause(text: str, cue: tuple[int, int], target: tuple[int, int], gpairs: list, linker) -> str:
    """Why a cuelex pair with no gold pair is wrong (a heuristic class, for counting only).

    Plan: the target holds a test, treatment, visit or provider word or opens with an agent
    ("we", "I"); non-clinical: no concept of the vocabulary links to it; scope: its cue is a gold
    cue or its target overlaps a gold target (the cue is real, its reach is not); otherwise a
    clinical target where the annotator saw no pair.
    """
    words, suffixes = _plan_words()
    toks = [w.strip(".,;:()").lower() for w in text[target[0]:target[1]].split()]
    toks = [w for w in toks if w]
    if toks and (toks[0] in _AGENTS or any(w in words or w.endswith(suffixes) for w in toks)):
        return FALSE_CAUSES[0]
    if linker.concept_of(text[target[0]:target[1]]) is None:
        return FALSE_CAUSES[1]
    for g in gpairs:
        if max(cue[0], g.cue[0]) < min(cue[1], g.cue[1]) or max(target[0], g.target[0]) < min(target[1], g.target[1]):
            return FALSE_CAUSES[2]
    return FALSE_CAUSES[3]


@functools.lru_cache(maxsize=1)
def _cue_families() -> dict[str, str]:
    """Lexicon entry id -> the lexicon file it comes from ("ul5.return_if" -> "ul5_contingency")."""
    out: dict[str, str] = {}
    for path in sorted((_ROOT / "lexicons").glob("*.yaml")):
        for entry in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get("entries", []) or []:
            if isinstance(entry, dict) and "id" in entry:
                out[entry["id"]] = path.stem
    return out


def cue_family(rule_id: str) -> str:
    """The cue family of a pair: its lexicon file, else the prefix of its rule id."""
    return _cue_families().get(rule_id) or rule_id.split(".", 1)[0]


@functools.lru_cache(maxsize=1)
def _anatomy_words() -> frozenset[str]:
    """Body-site words: the anatomy rows of ``cuelex/data/lay_parts.tsv`` and :data:`_BODY_WORDS`."""
    words = set(_BODY_WORDS)
    for line in (_ROOT / "cuelex" / "data" / "lay_parts.tsv").read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if cols and cols[0] == "anatomy" and len(cols) > 4:
            words.update(w.lower() for w in (cols[1], cols[2], cols[4]) if not w.endswith("-"))
    return frozenset(words)


def target_kind(text: str, level: str, target: tuple[int, int], sentence: str, linker) -> str:
    """What the target of a false pair names (a heuristic class, for counting only).

    Drug: a drug word or name ending; procedure/test: a plan word of :func:`_plan_words` or an
    agent at its start; general advice: a UL5 pair in a sentence naming no patient ("call if you
    ..."); body part: every word a body-site word or modifier; then the linked concept's semantic
    type (T184 symptom, others diagnosis); non-clinical: no concept links to it.
    """
    words, suffixes = _plan_words()
    toks = [w.strip(".,;:()").lower() for w in text[target[0]:target[1]].split()]
    toks = [w for w in toks if w]
    if any(w in _DRUG_WORDS or (len(w) > 6 and w.endswith(_DRUG_ENDINGS)) for w in toks):
        return TARGET_KINDS[0]
    if toks and (toks[0] in _AGENTS or any(w in words or w.endswith(suffixes) for w in toks)):
        return TARGET_KINDS[1]
    sent = {w.strip(".,;:()'\"").lower() for w in sentence.split()}
    if level in _ADVICE_LEVELS and not sent & _PATIENT_WORDS:
        return TARGET_KINDS[2]
    concept = linker.concept_of(text[target[0]:target[1]])
    anatomy = _anatomy_words()
    if toks and any(w in anatomy for w in toks) and (concept is None or all(
            w in anatomy or w in ("left", "right", "bilateral", "the", "his", "her", "of") for w in toks)):
        return TARGET_KINDS[3]
    if concept is None:
        return TARGET_KINDS[6]
    return TARGET_KINDS[4] if "T184" in concept.semantic_types else TARGET_KINDS[5]


def annotator_of() -> dict[str, str]:
    """The gold annotator of each annotated document (one annotator per document)."""
    with GOLD_FILE.open(encoding="utf-8") as handle:
        return {row["doc_id"]: row["annotator"] for row in map(json.loads, filter(str.strip, handle))}


def _pr(tp: int, n_sys: int, n_gold: int) -> tuple[float, float, float]:
    p = tp / n_sys if n_sys else float("nan")
    r = tp / n_gold if n_gold else float("nan")
    f = 2 * p * r / (p + r) if n_sys and n_gold and (p + r) else float("nan")
    return p, r, f


def evaluate(
    split: str, link: bool = False, batch: int | None = None, source: str | None = None,
    annotators: set[str] | None = None, fold: str | None = None,
) -> dict:
    # "all" is the real text (tune + report); the written sections are asked for by name
    docs = [d for d in load_documents() if d["split"] == split or (split == "all" and d["split"] != "written")]
    if fold is not None:  # one half of the tune documents (see tune_fold)
        docs = [d for d in docs if tune_fold(d["doc_id"]) == fold]
    if annotators is not None:  # only documents whose gold was written by these annotators
        who = annotator_of()
        docs = [d for d in docs if who.get(d["doc_id"]) in annotators]
    if batch is not None:
        docs = [d for d in docs if d.get("batch", 1) == batch]
    if source is not None:  # "aci" or "iu": the doc id prefix, to measure one kind of text
        docs = [d for d in docs if d["doc_id"].split(":", 1)[0] == source]
    gold = load_gold()
    rows = []  # (doc, kind, detail)
    per_level = {lv: Counter() for lv in LEVELS}
    totals = Counter()
    confusion: Counter = Counter()
    misses: Counter = Counter()  # (gold level, cause)
    falses: Counter = Counter()  # cause
    false_kinds: Counter = Counter()  # (axis, value): level, cue family, target kind, wrong target
    boundary: Counter = Counter()  # gold level -> found at that level, target span not exact
    false_by_level: Counter = Counter()  # (cuelex level, false cause or WRONG_LEVEL): not right at its level
    linker = cuelex.get_linker()
    engine = cuelex.get_engine()
    for doc in docs:
        if doc["doc_id"] not in gold:
            continue
        text = doc["text"]
        gpairs = gold[doc["doc_id"]]
        pairs = cuelex.extract(text, doc_id=doc["doc_id"], link=link)
        spans = [(p.target_start, p.target_end) for p in pairs]
        scan = engine._scan_text(text)  # every lexicon match, to tell a missing cue from a dropped one
        m = match(spans, gpairs)
        totals["docs"] += 1
        totals["gold"] += len(gpairs)
        totals["system"] += len(pairs)
        for g in gpairs:
            per_level[g.level]["gold"] += 1
        matched_gold = {g.pair_id for g in m.values()}
        for i, p in enumerate(pairs):
            lv = p.level.value
            if lv in per_level:
                per_level[lv]["system"] += 1
            g = m.get(i)
            if g is None:
                why = false_cause(text, (p.cue_start, p.cue_end), (p.target_start, p.target_end), gpairs, linker)
                falses[why] += 1
                false_by_level[(lv, why)] += 1
                false_kinds[("level", lv)] += 1
                false_kinds[("cue family", cue_family(p.rule_id))] += 1
                false_kinds[("target kind", target_kind(text, lv, (p.target_start, p.target_end), p.sentence, linker))] += 1
                other = any(max(p.cue_start, g.cue[0]) < min(p.cue_end, g.cue[1]) for g in gpairs)
                false_kinds[("gold cue", "same cue, other target" if other else "no gold pair on the cue")] += 1
                rows.append((doc["doc_id"], "extra", f"{lv} cue={p.cue_text!r} target={p.target_text!r} | {p.sentence.strip()[:160]!r}"))
                continue
            confusion[(g.level, lv)] += 1
            t_ok = target_right(text, (p.target_start, p.target_end), g)
            # The cue overlaps the gold cue; for alternatives either the hedge word or the
            # connective ("may represent A or B") is an acceptable cue.
            c_ok = max(p.cue_start, g.cue[0]) < min(p.cue_end, g.cue[1]) or (
                g.level == "UL3" and lv == "UL3" and p.cue_text.lower() in _CONNECTIVES
            )
            same = g.level == lv
            totals["matched"] += 1
            if same:
                per_level[lv]["tp"] += 1
                if t_ok:
                    per_level[lv]["tp_strict"] += 1
            if same and t_ok and c_ok:
                totals["fully_right"] += 1
            if not same:
                misses[(g.level, MISS_CAUSES[3])] += 1
                false_by_level[(lv, WRONG_LEVEL)] += 1
                rows.append((doc["doc_id"], "level", f"gold {g.level} vs {lv} cue={p.cue_text!r} target={p.target_text!r} gold target={text[g.target[0]:g.target[1]]!r}"))
            elif not t_ok:
                boundary[g.level] += 1
                rows.append((doc["doc_id"], "target", f"{lv} {p.target_text!r} vs gold {text[g.target[0]:g.target[1]]!r} (core {text[g.core[0]:g.core[1]]!r})"))
            elif not c_ok:
                rows.append((doc["doc_id"], "cue", f"{lv} cue {p.cue_text!r} vs gold {text[g.cue[0]:g.cue[1]]!r} target={p.target_text!r}"))
        for g in gpairs:
            if g.pair_id not in matched_gold:
                cue_found = any(max(p.cue_start, g.cue[0]) < min(p.cue_end, g.cue[1]) for p in pairs)
                if cue_found:
                    cause = MISS_CAUSES[2]
                else:  # did the lexicon scan match a cue there at all (then the engine dropped it)?
                    scanned = any(m.kind in ("cue", "alt") and max(m.start, g.cue[0]) < min(m.end, g.cue[1]) for m in scan)
                    cause = MISS_CAUSES[1] if scanned else MISS_CAUSES[0]
                misses[(g.level, cause)] += 1
                s = max(0, g.target[0] - 60)
                rows.append((doc["doc_id"], "missed", f"{g.level} cue={text[g.cue[0]:g.cue[1]]!r} target={text[g.target[0]:g.target[1]]!r} | …{text[s:g.target[1] + 40]!r}"))
    hedged = Counter()
    for lv in HEDGED:
        for k in ("tp", "tp_strict", "system", "gold"):
            hedged[k] += per_level[lv][k]
    return {
        "split": split,
        "totals": totals,
        "per_level": per_level,
        "hedged": hedged,
        "confusion": confusion,
        "misses": misses,
        "falses": falses,
        "false_kinds": false_kinds,
        "boundary": boundary,
        "false_by_level": false_by_level,
        "rows": rows,
    }


def table(result: dict) -> str:
    t = result["totals"]
    lines = [
        f"Documents {t['docs']}, gold pairs {t['gold']}, cuelex pairs {t['system']}, "
        f"matched by target {t['matched']}.",
        "",
        "| level | gold | cuelex | precision | recall | F1 | precision, target exact | recall, target exact |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    def pct(x: float) -> str:
        return "–" if x != x else f"{x:.1%}"

    def row(name: str, c: Counter) -> str:
        p, r, f = _pr(c["tp"], c["system"], c["gold"])
        ps, rs, _ = _pr(c["tp_strict"], c["system"], c["gold"])
        f1 = "–" if f != f else f"{f:.3f}"
        return (f"| {name} | {c['gold']} | {c['system']} | {pct(p)} | {pct(r)} | {f1} | "
                f"{pct(ps)} | {pct(rs)} |")
    for lv in LEVELS:
        lines.append(row(lv, result["per_level"][lv]))
    lines.append(row("hedged UL2–UL5", result["hedged"]))
    allc = Counter()
    for lv in LEVELS:
        for k in ("tp", "tp_strict", "system", "gold"):
            allc[k] += result["per_level"][lv][k]
    lines.append(row("all pairs", allc))
    fully = t["fully_right"] / t["system"] if t["system"] else float("nan")
    lines += [
        "",
        f"Pairs fully right (cue, target and level; share of cuelex pairs): {fully:.1%} "
        f"(the paper's rule-based pipeline: 82% on its own human validation).",
    ]
    return "\n".join(lines)


def breakdown(result: dict) -> str:
    """Aggregate error counts (no rows, so allowed on the report half): misses by gold level and
    cause, then gold pairs found at their level whose target span is not exact (a boundary miss
    for the target-exact columns only), false pairs by cause."""
    misses, falses, boundary = result["misses"], result["falses"], result["boundary"]
    lines = [
        "Missed gold pairs (not found at their level) by gold level and cause; last column: found at "
        "the gold level with another target span (counts against the target-exact columns only):",
        "",
        "| gold level | " + " | ".join(MISS_CAUSES) + " | total | target boundary |",
        "| --- |" + " ---: |" * (len(MISS_CAUSES) + 2),
    ]
    for lv in (*LEVELS, "all"):
        counts = [sum(n for (g, c), n in misses.items() if c == cause and (lv == "all" or g == lv)) for cause in MISS_CAUSES]
        edge = sum(boundary.values()) if lv == "all" else boundary[lv]
        if lv != "all" and not any(counts) and not edge:
            continue
        lines.append(f"| {lv} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} | {edge} |")
    lines += ["", "False pairs (no gold pair) by cause: " + ", ".join(f"{c} {falses[c]}" for c in FALSE_CAUSES)
              + f"; total {sum(falses.values())}"]
    by_level = result.get("false_by_level", Counter())
    if by_level:
        causes = (*FALSE_CAUSES, WRONG_LEVEL)
        lines += ["", "Hedged cuelex pairs not right at their level, by cuelex level and cause (the precision "
                  "errors of UL2–UL5):", "", "| cuelex level | " + " | ".join(causes) + " | total |",
                  "| --- |" + " ---: |" * (len(causes) + 1)]
        for lv in (*sorted(HEDGED), "hedged"):
            counts = [sum(n for (l, c), n in by_level.items() if c == cause and (l == lv or (lv == "hedged" and l in HEDGED)))
                      for cause in causes]
            if lv == "hedged" or any(counts):
                lines.append(f"| {lv} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
        lines.append("")
    kinds = result.get("false_kinds", Counter())
    for axis in ("level", "cue family", "target kind", "gold cue"):
        counts = sorted(((v, n) for (a, v), n in kinds.items() if a == axis), key=lambda vn: (-vn[1], vn[0]))
        lines.append(f"False pairs by {axis}: " + (", ".join(f"{v} {n}" for v, n in counts) or "none"))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=["tune", "report", "all", "written"], default="tune",
                        help="written: the plans written for the project (development only)")
    parser.add_argument("--link", action="store_true", help="extract with concept linking")
    parser.add_argument("--errors", action="store_true", help="print error rows (always on for tune, except fold b)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/accuracy.md")
    parser.add_argument("--batch", type=int, help="only the documents of this batch (a fresh check)")
    parser.add_argument("--source", choices=["aci", "iu", "wp"], help="only ACI-BENCH sections, IU reports or written plans")
    parser.add_argument("--fold", choices=["a", "b"], help="only one fold of the tune half (develop on one, "
                        "check the other)")
    parser.add_argument("--annotators", help="only documents annotated by these (comma-separated ids, "
                        "e.g. to separate annotators who annotated one split only)")
    args = parser.parse_args(argv)
    if args.fold and args.split != "tune":
        parser.error("--fold divides the tune half only")
    subset = (args.batch is not None or args.source is not None or args.annotators is not None
              or args.fold is not None)
    if subset and args.write_docs:
        parser.error("--write-docs reports whole splits; leave out --batch, --source, --fold and --annotators")
    if args.write_docs and args.split == "written":
        parser.error("--write-docs reports the real text; the written plans are development data")
    annotators = set(args.annotators.split(",")) if args.annotators else None
    result = evaluate(args.split, link=args.link, batch=args.batch, source=args.source,
                      annotators=annotators, fold=args.fold)
    out = table(result)
    print(out)
    c = result["confusion"]
    print("\n" + breakdown(result))
    print("\nconfusion (gold → cuelex), matched pairs: " + ", ".join(
        f"{g}→{s} {n}" for (g, s), n in sorted(c.items()) if g != s))
    if (args.split in ("tune", "written") and args.fold != "b") or args.errors:  # fold b is checked blind, like report
        print("\nerror rows:")
        for doc, kind, detail in sorted(result["rows"], key=lambda r: (r[1], r[0])):
            print(f"  [{kind}] {doc}: {detail}")
    else:
        print("\nerrors by kind: " + ", ".join(f"{k} {n}" for k, n in Counter(r[1] for r in result["rows"]).items()))
    if args.write_docs:
        write_block(DOCS_PAGE, "realtext", out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
