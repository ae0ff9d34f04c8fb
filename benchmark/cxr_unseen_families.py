"""Hedge families in unseen chest X-ray reports: how often each occurs and how often cuelex pairs it.

Runs ``cuelex.extract`` over the IU chest X-ray reports (``../shared/data/eval/iu_cxr_dev.jsonl``)
that are in neither half of the real-text set (every id in ``benchmark/data/realtext/documents.jsonl``
is left out, and any further ids given with ``--exclude FILE``, e.g. reports already selected for
a batch not yet annotated). For each wording family of radiology hedging and indeterminacy (UL4:
"nonspecific", "not well evaluated", "could reflect"...; UL2/UL3: "likely", "suggests",
"favored"...; hedged absence; alternatives) it counts the occurrences and how many lie inside a
pair's cue (``paired``) or inside the span between a pair's cue and its target (``in scope``, a
word that another cue's pair covers); the rest are ``unpaired``. Families are ranked by unpaired
occurrences, so the frequent gaps of the lexicon show first. No gold labels are used.

    .venv/bin/python benchmark/cxr_unseen_families.py --exclude IDS.txt
    .venv/bin/python benchmark/cxr_unseen_families.py --exclude IDS.txt --examples 4 --family nonspecific
    .venv/bin/python benchmark/cxr_unseen_families.py --save /tmp/a.json      # counts only, no text
    .venv/bin/python benchmark/cxr_unseen_families.py --compare /tmp/a.json
    .venv/bin/python benchmark/cxr_unseen_families.py --wordings 40      # unpaired wordings, ranked

``--wordings N`` ranks the unpaired occurrences of every hedged family by their wording (the
family word and the two words after it, lower-cased), the N most frequent first, so a wording the
lexicon lacks shows with its frequency (terminal only, never saved).

Example sentences are printed to the terminal only (the IU licence forbids copies in the project).
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from hedge_coverage import unseen_iu_reports

import cuelex
from cuelex.pipeline import get_engine

# Wording families of radiology hedging, written from how reports hedge (the task's checklist and
# the radiology certainty literature), not from the lexicons. (family, paper level, pattern).
FAMILIES: list[tuple[str, str, str]] = [
    # UL4: the finding is unresolved, or the study cannot decide it
    ("indeterminate", "UL4", r"indeterminate"),
    ("nonspecific", "UL4", r"non-?specific"),
    ("equivocal", "UL4", r"equivocal"),
    ("uncertain / unclear significance, etiology", "UL4",
     r"(?:uncertain|unclear|unknown|undetermined|indeterminate) (?:clinical )?(?:significance|etiology|origin|nature|chronicity|age)"),
    ("age-indeterminate / of indeterminate age", "UL4", r"age[- ]indeterminate|of (?:indeterminate|undetermined|uncertain|unknown) age"),
    ("limited / poorly evaluated, assessed", "UL4",
     r"(?:limited|limits|limiting|poorly|suboptimally|not well|incompletely|not) (?:evaluated|assessed|evaluation|assessment|characterized|excluded)"),
    ("not well seen / visualized / demonstrated", "UL4",
     r"not (?:well |clearly |definitely |optimally )?(?:seen|visualized|demonstrated|identified|delineated|evaluated)"),
    ("obscured / obscures / obscuring", "UL4", r"obscur\w*"),
    ("technique: rotation, penetration, inspiration, positioning", "UL4",
     r"(?:patient )?rotation|under-?penetrat\w*|over-?penetrat\w*|low lung volumes?|poor inspiration|shallow inspiration|"
     r"hypoinflat\w*|portable technique|AP technique|positioning|overlying (?:soft tissues?|artifact)|motion artifact|"
     r"exclude[ds]? from the (?:image|field)|off the (?:film|image)|not included"),
    ("could / may reflect", "UL3", r"(?:could|may|might|can) (?:also )?(?:reflect|represent|be due to|relate to|be related to|indicate)"),
    ("cannot / could not be excluded, determined", "UL3",
     r"(?:cannot|can not|could not|can't|not) (?:be )?(?:entirely |completely |definitely |definitively )?(?:excluded|exclude|ruled out|rule out|determined|distinguished|differentiated)"),
    ("difficult / hard to", "UL4", r"(?:difficult|hard|impossible) to (?:\w+)"),
    ("uncertain / unclear", "UL4", r"uncertain|unclear"),
    ("too small to characterize", "UL4", r"too small to"),
    ("correlate / correlation", "UL5", r"correlat\w*"),
    ("follow-up / repeat / further imaging", "UL5",
     r"follow[- ]?up|repeat (?:\w+ )?(?:radiograph|film|x-?ray|CT|imaging|exam)|further (?:evaluation|imaging|assessment)|"
     r"recommend\w*|(?:CT|chest CT|oblique views?|rib (?:series|films?)|lateral decubitus) (?:is|may be|could be|would be|can be) (?:recommended|helpful|obtained|considered|performed)"),
    # UL2
    ("likely / most likely / probably", "UL2", r"(?:most |more |very |highly )?likely|probabl[ey]"),
    ("suggests / suggestive / suggesting", "UL2", r"suggest\w*"),
    ("favored / favor", "UL2", r"favou?r\w*"),
    ("compatible / consistent / in keeping", "UL2", r"compatible|consistent|in keeping|characteristic of|typical of"),
    ("represents / reflects (bare)", "UL2", r"(?<!may )(?<!could )(?<!might )(?:represent|reflect)(?:s|ing)?"),
    ("appears / seems / presumed / apparent", "UL2", r"appear\w*|seem\w*|presum\w*|apparent\w*|thought to|felt to|believed"),
    ("attributed / related / secondary / due to", "UL2", r"attributable|attributed|(?:probably |likely )?(?:related|secondary|due) to"),
    # UL3
    ("suspicious / suspected / suspicion", "UL3", r"suspic\w*|suspect\w*"),
    ("concern / concerning / worrisome", "UL3", r"concern\w*|worr\w*"),
    ("possible / possibly / possibility", "UL3", r"possib\w*"),
    ("may / might / could (other)", "UL3", r"may|might|could"),
    ("question / questionable / ?", "UL3", r"question\w*|\?"),
    ("differential / consider", "UL3", r"differential|consider\w*|diagnos\w* (?:include|would include)"),
    ("perhaps / maybe", "UL3", r"perhaps|maybe"),
    ("vague / subtle / faint / ill-defined (hedging adjectives)", "UL3",
     r"vague\w*|subtle|faint|ill-?defined|poorly defined|hazy|questionable"),
    ("minimal / mild / small (not hedges)", "ASSERTED", r"minimal|mild|small"),
    # HEDGED_ABSENT
    ("unlikely / doubt / not favored", "HEDGED_ABSENT", r"unlikely|doubt\w*|not (?:favou?red|likely)|less likely|improbable"),
    ("no definite / convincing / definitive", "HEDGED_ABSENT",
     r"(?:no|without) (?:\w+ )?(?:definite|convincing|definitive|clear|obvious|discrete|significant)"),
    ("not appear / does not look", "HEDGED_ABSENT", r"(?:does|do) not (?:appear|look|seem)|not (?:appear|seem) to"),
    # alternatives
    ("or / and/or / versus / vs / slash", "UL3", r"or|and/or|versus|vs\.?|(?<=\w)/(?=\w)"),
    ("either ... or / rather than / as opposed to", "UL3", r"either|rather than|as opposed to|vs"),
]
_RX = [(name, lvl, re.compile(r"(?<![\w-])(?:" + pat + r")(?![\w])", re.I)) for name, lvl, pat in FAMILIES]
_HEDGED = {"HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}


def _wording(sentence: str, end: int, word: str) -> str:
    """The family word and the two words after it, lower-cased (the key ``--wordings`` ranks)."""
    after = re.findall(r"[A-Za-z][A-Za-z'-]*", sentence[end:])[:2]
    return " ".join([word.lower(), *(w.lower() for w in after)])


def scan(exclude: set[str], examples: int = 0, family: str | None = None) -> dict:
    """Counts per family: occurrences, paired (by level), in scope, unpaired; examples if asked."""
    engine = get_engine()
    occ: Counter = Counter()
    paired: dict[str, Counter] = defaultdict(Counter)
    in_scope: Counter = Counter()
    unpaired: Counter = Counter()
    docs_with: Counter = Counter()
    shown: dict[str, list[str]] = defaultdict(list)
    levels: Counter = Counter()
    wordings: Counter = Counter()
    docs = unseen_iu_reports(frozenset(exclude))
    for doc_id, text in docs:
        pairs = cuelex.extract(text, doc_id=doc_id)
        for p in pairs:
            levels[p.level.value] += 1
        seen_here: set[str] = set()
        for s0, s1 in engine.sentences(text):
            sentence = text[s0:s1]
            here = [p for p in pairs if s0 <= p.cue_start < s1]
            for name, _lvl, rx in _RX:
                for m in rx.finditer(sentence):
                    a, b = s0 + m.start(), s0 + m.end()
                    occ[name] += 1
                    seen_here.add(name)
                    on_cue = [p for p in here if p.cue_start < b and a < p.cue_end]
                    if on_cue:
                        for p in on_cue:
                            paired[name][p.level.value] += 1
                        continue
                    if any(min(p.cue_start, p.target_start) < b and a < max(p.cue_end, p.target_end) for p in here):
                        in_scope[name] += 1
                        continue
                    unpaired[name] += 1
                    if _lvl != "ASSERTED":
                        wordings[(name, _wording(sentence, m.end(), m.group(0)))] += 1
                    if (family is None or family.lower() in name.lower()) and len(shown[name]) < examples:
                        rel = m.start()
                        shown[name].append(f"{doc_id}: {sentence[:rel]}[[{m.group(0)}]]{sentence[m.end():]}".strip()[:260])
        for name in seen_here:
            docs_with[name] += 1
    return {
        "documents": len(docs),
        "levels": dict(levels),
        "families": {
            name: {
                "paper_level": lvl,
                "occurrences": occ[name],
                "documents": docs_with[name],
                "paired": dict(paired[name]),
                "in_scope": in_scope[name],
                "unpaired": unpaired[name],
            }
            for name, lvl, _rx in _RX
        },
        "_shown": dict(shown),
        "_wordings": wordings,
    }


def report(result: dict, previous: dict | None, family: str | None) -> None:
    print(f"Unseen IU reports: {result['documents']}")
    print("pairs by level: " + ", ".join(f"{k} {v}" for k, v in sorted(result["levels"].items())))
    if previous:
        print("before:         " + ", ".join(f"{k} {v}" for k, v in sorted(previous["levels"].items())))
    print("\n| family | level | occurrences | reports | paired (by level) | in scope | unpaired |"
          + (" unpaired before |" if previous else ""))
    print("| --- | --- | ---: | ---: | --- | ---: | ---: |" + (" ---: |" if previous else ""))
    fams = result["families"]
    for name in sorted(fams, key=lambda n: -fams[n]["unpaired"]):
        f = fams[name]
        if family and family.lower() not in name.lower():
            continue
        by = ", ".join(f"{k} {v}" for k, v in sorted(f["paired"].items())) or "–"
        extra = f" {previous['families'].get(name, {}).get('unpaired', '–')} |" if previous else ""
        print(f"| {name} | {f['paper_level']} | {f['occurrences']} | {f['documents']} | {by} | {f['in_scope']} | {f['unpaired']} |{extra}")
    for name, rows in result["_shown"].items():
        if rows:
            print(f"\n{name}:")
            for row in rows:
                print("   - " + row)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exclude", type=Path, help="file of further document ids to leave out (one a line)")
    parser.add_argument("--examples", type=int, default=0, help="unpaired example sentences per family (terminal only)")
    parser.add_argument("--family", help="only this family (substring of its name)")
    parser.add_argument("--save", type=Path, help="write the counts (no text) as JSON")
    parser.add_argument("--compare", type=Path, help="JSON from --save to compare against")
    parser.add_argument("--wordings", type=int, default=0,
                        help="rank the N most frequent unpaired wordings of the hedged families (terminal only)")
    args = parser.parse_args()
    exclude = set(args.exclude.read_text().split()) if args.exclude else set()
    result = scan(exclude, args.examples, args.family)
    previous = json.loads(args.compare.read_text()) if args.compare else None
    report(result, previous, args.family)
    if args.wordings:
        print(f"\nUnpaired wordings of the hedged families, most frequent first (top {args.wordings}):")
        print("| count | family | wording |\n| ---: | --- | --- |")
        for (name, wording), n in result["_wordings"].most_common(args.wordings):
            if args.family is None or args.family.lower() in name.lower():
                print(f"| {n} | {name} | {wording} |")
    if args.save:
        args.save.write_text(json.dumps({k: v for k, v in result.items() if not k.startswith("_")}, indent=1))


if __name__ == "__main__":
    main()
