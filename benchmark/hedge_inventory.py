"""Inventory audit: does cuelex pair each published hedge / evaluation cue with its target at the right level?

Row-independent evidence for issue 12. Instead of rows of the real-text set, the checklist is the
hedge vocabulary of the clinical/biomedical NLP literature, one entry per cue class, each exercised
by 2-4 short sentences written for this audit (own wording, never copied from a corpus) in
different syntactic frames (pre-nominal, predicative / post-nominal, clause-level) and with targets
of different shapes (single noun, coordinated, with anatomy or modifiers). The sentences were
written BEFORE the lexicon/rule fixes of the session that added this script and are not edited to
suit the engine: a fix must generalise to them.

Checklists used (as lists of cue CLASSES to cover; no list is copied):

- ``bioscope``: speculation cue classes of the BioScope corpus and the CoNLL-2010 shared task
  (Vincze et al., BMC Bioinformatics 2008; Farkas et al., CoNLL-2010 Shared Task, 2010): modal
  auxiliaries (may, might, could, can), epistemic verbs (suggest, indicate, appear, seem, suspect),
  adjectives and adverbs (possible/possibly, probable/probably, likely, putative, unclear),
  "cannot be excluded", and alternatives ("or", "either", "whether").
- ``context``: medSpaCy's English ConText rules (``resources/en/context_rules.json`` in medspacy
  1.3.1, MIT licence; derived from ConText, Harkema et al., J Biomed Inform 2009),
  categories POSSIBLE_EXISTENCE ("possible", "suggestive of", "suspicious for", "worrisome for",
  "rule out", "r/o", "might be", "concerned about", "not ruled out") and HYPOTHETICAL ("if",
  "return", "come back for", "should he", "should the patient", "as needed").
- ``radiology``: diagnostic-certainty phrases of radiology reports (Lacson et al., "Factors
  impacting the use of terminology to convey diagnostic certainty in radiology reports", Open Med
  Inform J 2018, CC-BY 4.0: 16 phrases such as "consistent with", "suspicious for", "most likely",
  "unlikely", "diagnostic of"; Panicek & Hricak, "How sure are you, doctor?", AJR 2016: a
  standardised five-step scale from "consistent with" to "unlikely"), and the limited-study
  phrases radiologists use ("limits evaluation", "not well seen", "suboptimal", "obscured").
- ``paper``: the benchmark paper's level definitions and Appendix A (UL5 = query, rule-out, workup,
  follow-up target, patient-specific future contingency; UL4 = cannot currently be resolved) and
  /work/annot/GUIDELINES.md (levels of "compatible with", "presumed", alternatives, etc.).

Levels follow the annotation guidelines; where the guidelines do not list a cue, the level of its
closest listed analogue (e.g. "suspected" like "suspicious for": UL3).

    .venv/bin/python benchmark/hedge_inventory.py              # per class and total
    .venv/bin/python benchmark/hedge_inventory.py --failures   # every probe that is wrong
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

import cuelex

HEDGED = {"HEDGED_ABSENT", "UL2", "UL3", "UL4", "UL5"}


@dataclass(frozen=True)
class Entry:
    """One inventory cue: its class, level, checklist source(s) and probes (sentence, targets)."""

    cls: str
    cue: str
    level: str
    sources: tuple[str, ...]
    # each probe: (sentence, expected targets; "a|b" accepts either reading)
    probes: tuple[tuple[str, tuple[str, ...]], ...]


def E(cls: str, cue: str, level: str, sources: str, *probes: tuple[str, tuple[str, ...]]) -> Entry:
    """Build an entry (sources as a space-separated string)."""
    return Entry(cls, cue, level, tuple(sources.split()), tuple(probes))


INVENTORY: tuple[Entry, ...] = (
    # ---- modal auxiliaries (UL3) ----
    E("modal", "may", "UL3", "bioscope paper",
      ("The opacity may be pneumonia.", ("pneumonia",)),
      ("Bibasilar opacities may reflect atelectasis or aspiration.", ("atelectasis", "aspiration")),
      ("A small effusion may be present at the left base.", ("small effusion",))),
    E("modal", "might", "UL3", "bioscope context",
      ("The nodule might be a granuloma.", ("granuloma",)),
      ("A small pneumothorax might be present at the apex.", ("small pneumothorax",))),
    E("modal", "could", "UL3", "bioscope paper",
      ("This could represent a nondisplaced rib fracture.", ("nondisplaced rib fracture",)),
      ("Her symptoms could be due to reflux esophagitis.", ("reflux esophagitis",)),
      ("Lymphoma could also have this appearance.", ("Lymphoma",))),
    E("modal", "cannot be excluded / ruled out", "UL3", "bioscope context radiology paper",
      ("Cannot exclude a small pneumothorax.", ("small pneumothorax",)),
      ("A subtle nondisplaced fracture cannot be ruled out.", ("subtle nondisplaced fracture|nondisplaced fracture",)),
      ("Early appendicitis is not excluded.", ("Early appendicitis|appendicitis",)),
      ("We could not rule out a stress fracture of the second metatarsal.",
       ("stress fracture of the second metatarsal|stress fracture",))),
    # ---- epistemic verbs ----
    E("epistemic verb", "suggest", "UL2", "bioscope context radiology paper",
      ("Findings suggest congestive heart failure.", ("congestive heart failure",)),
      ("The pattern is suggestive of interstitial edema.", ("interstitial edema",)),
      ("Hyperinflation suggesting emphysema.", ("emphysema",))),
    E("epistemic verb", "indicate", "UL2", "bioscope",
      ("Blunting of the costophrenic angle, indicative of a small effusion.", ("small effusion",)),
      ("The elevated troponin indicates myocardial injury.", ("myocardial injury",))),
    E("epistemic verb", "appear", "UL2", "bioscope paper",
      ("The density appears to be a calcified granuloma.", ("calcified granuloma",)),
      ("This appears to represent scarring in the lingula.", ("scarring in the lingula|scarring",)),
      ("He appears to have cellulitis of the left leg.", ("cellulitis of the left leg|cellulitis",))),
    E("epistemic verb", "seem", "UL2", "bioscope",
      ("The rash seems to be contact dermatitis.", ("contact dermatitis",)),
      ("She seems to have a viral syndrome.", ("viral syndrome",))),
    E("epistemic verb", "favor", "UL2", "radiology paper",
      ("Favor atelectasis at the left base.", ("atelectasis",)),
      ("The lesion is favored to represent a hemangioma.", ("hemangioma",)),
      ("Findings favor a benign renal cyst.", ("benign renal cyst",))),
    E("epistemic verb", "question", "UL3", "bioscope paper",
      ("Questionable small nodule in the right apex.", ("small nodule",)),
      ("There is question of a hairline fracture of the radius.", ("hairline fracture of the radius|hairline fracture",))),
    E("epistemic verb", "suspect", "UL3", "bioscope",
      ("We suspect viral gastroenteritis.", ("viral gastroenteritis",)),
      ("Suspected small bowel obstruction.", ("small bowel obstruction",)),
      ("A urinary tract infection is suspected.", ("urinary tract infection",))),
    E("epistemic verb", "concerned / worried about", "UL3", "context paper",
      ("I am concerned about early sepsis.", ("early sepsis",)),
      ("We are worried about a retained common bile duct stone.", ("retained common bile duct stone|common bile duct stone",))),
    E("epistemic verb", "raises the possibility of", "UL3", "radiology",
      ("These findings raise the possibility of sarcoidosis.", ("sarcoidosis",)),
      ("There is a possibility of early osteomyelitis.", ("early osteomyelitis",))),
    # ---- adjectives ----
    E("adjective", "possible", "UL3", "bioscope context radiology paper",
      ("Possible left lower lobe pneumonia.", ("left lower lobe pneumonia",)),
      ("A small effusion is possible.", ("small effusion",)),
      ("Possible atelectasis or consolidation at the bases.", ("atelectasis", "consolidation"))),
    E("adjective", "probable", "UL2", "bioscope radiology paper",
      ("Probable right middle lobe atelectasis.", ("right middle lobe atelectasis",)),
      ("Viral bronchitis is probable.", ("Viral bronchitis",))),
    E("adjective", "likely", "UL2", "bioscope radiology paper",
      ("Likely pneumonia in the right lower lobe.", ("pneumonia in the right lower lobe|pneumonia",)),
      ("The opacity is likely atelectasis.", ("atelectasis",)),
      ("Findings are most likely due to chronic bronchitis.", ("chronic bronchitis",))),
    E("adjective", "suspicious / concerning / worrisome for", "UL3", "context radiology paper",
      ("A spiculated mass suspicious for malignancy.", ("malignancy",)),
      ("The lesion is concerning for metastatic disease.", ("metastatic disease",)),
      ("Findings worrisome for an abscess.", ("abscess",))),
    E("adjective", "equivocal", "UL4", "radiology paper",
      ("Equivocal ground-glass opacity in the left upper lobe.",
       ("ground-glass opacity in the left upper lobe|ground-glass opacity",)),
      ("The findings are equivocal for early pneumonia.", ("early pneumonia",))),
    E("adjective", "indeterminate", "UL4", "radiology paper",
      ("Indeterminate 6 mm pulmonary nodule.", ("6 mm pulmonary nodule|pulmonary nodule",)),
      ("The left adrenal nodule is indeterminate.", ("left adrenal nodule",))),
    E("adjective", "presumed", "UL2", "paper",
      ("Presumed viral pneumonia.", ("viral pneumonia",)),
      ("The mass is presumed to be a lipoma.", ("lipoma",))),
    E("adjective", "consistent / compatible with", "UL2", "radiology paper",
      ("Findings consistent with pulmonary edema.", ("pulmonary edema",)),
      ("The appearance is compatible with a simple cyst.", ("simple cyst",)),
      ("Most consistent with a healing rib fracture.", ("healing rib fracture",)),
      ("The opacity is in keeping with round atelectasis.", ("round atelectasis",))),
    # ---- adverbs ----
    E("adverb", "possibly", "UL3", "bioscope",
      ("Possibly a small pneumothorax.", ("small pneumothorax",)),
      ("The cough is possibly related to reflux.", ("reflux",))),
    E("adverb", "probably", "UL2", "bioscope radiology",
      ("This is probably a benign cyst.", ("benign cyst",)),
      ("Probably viral pharyngitis.", ("viral pharyngitis",))),
    E("adverb", "perhaps", "UL3", "bioscope",
      ("Perhaps early consolidation at the right base.", ("early consolidation",)),
      ("Perhaps this represents viral myositis.", ("viral myositis",))),
    E("adverb", "presumably", "UL2", "bioscope paper",
      ("Presumably a postoperative seroma.", ("postoperative seroma",)),
      ("This presumably reflects scarring.", ("scarring",))),
    # ---- alternatives ----
    E("alternatives", "versus", "UL3", "paper",
      ("Atelectasis versus pneumonia at the left base.", ("Atelectasis", "pneumonia")),
      ("Small effusion vs. pleural thickening.", ("Small effusion|effusion", "pleural thickening"))),
    E("alternatives", "differential includes", "UL3", "paper",
      ("Differential includes sarcoidosis and lymphoma.", ("sarcoidosis", "lymphoma")),
      ("The differential diagnosis includes infection or neoplasm.", ("infection", "neoplasm"))),
    E("alternatives", "or (alternative diagnoses)", "UL3", "bioscope paper",
      ("Right basilar opacity, atelectasis or pneumonia.", ("atelectasis", "pneumonia")),
      ("Scarring or atelectasis in the lingula.", ("Scarring", "atelectasis"))),
    E("alternatives", "either ... or", "UL3", "bioscope",
      ("Either atelectasis or early pneumonia.", ("atelectasis", "early pneumonia")),
      ("The nodule is either a granuloma or a hamartoma.", ("granuloma", "hamartoma"))),
    E("alternatives", "cannot be distinguished from", "UL3", "radiology",
      ("Scarring cannot be distinguished from active infection.", ("active infection",)),
      ("Atelectasis cannot be differentiated from consolidation.", ("consolidation",))),
    # ---- hedged absence ----
    E("hedged absence", "unlikely / doubt / less likely", "HEDGED_ABSENT", "radiology paper",
      ("Pneumonia is unlikely.", ("Pneumonia",)),
      ("This is unlikely to represent malignancy.", ("malignancy",)),
      ("I doubt appendicitis.", ("appendicitis",)),
      ("Infection is less likely.", ("Infection",)),
      ("Malignancy is not favored.", ("Malignancy",))),
    # ---- UL4: limited evaluation / cannot assess ----
    E("UL4 limited", "limits evaluation for", "UL4", "radiology paper",
      ("Overlying hardware limits evaluation for pneumothorax.", ("pneumothorax",)),
      ("Evaluation for a small effusion is limited by body habitus.", ("small effusion",)),
      ("Patient rotation limits assessment for mediastinal widening.", ("mediastinal widening",))),
    E("UL4 limited", "obscured", "UL4", "radiology",
      ("Any small effusion is obscured by the overlying soft tissues.", ("small effusion",)),
      ("Overlying devices could obscure a small pneumothorax.", ("small pneumothorax",))),
    E("UL4 limited", "not well seen", "UL4", "radiology paper",
      ("The left lower lobe nodule is not well seen today.", ("left lower lobe nodule",)),
      ("A previously described hilar mass is not well visualized.", ("hilar mass",))),
    E("UL4 limited", "suboptimal", "UL4", "radiology",
      ("Suboptimal evaluation for pulmonary embolism due to contrast timing.", ("pulmonary embolism",)),
      ("The study is suboptimal for detection of a small pneumothorax.", ("small pneumothorax",))),
    E("UL4 limited", "could not be assessed", "UL4", "radiology paper",
      ("A small effusion could not be assessed on this view.", ("small effusion",)),
      ("Pneumothorax cannot be assessed on the supine film.", ("Pneumothorax",))),
    E("UL4 limited", "technically limited", "UL4", "radiology",
      ("Technically limited evaluation for rib fractures.", ("rib fractures",)),
      ("The examination is technically limited for assessment of free air.", ("free air",))),
    E("UL4 limited", "nondiagnostic / cannot be determined", "UL4", "paper",
      ("The study is nondiagnostic for appendicitis.", ("appendicitis",)),
      ("It is unclear whether this represents pneumonia.", ("pneumonia",))),
    # ---- UL5: query, rule-out, workup, follow-up targets ----
    E("UL5 evaluation", "? (query)", "UL5", "paper",
      ("? pneumonia", ("pneumonia",)),
      ("Left lower lobe pneumonia?", ("Left lower lobe pneumonia",))),
    E("UL5 evaluation", "rule out / r/o", "UL5", "context paper",
      ("Rule out pulmonary embolism.", ("pulmonary embolism",)),
      ("CT chest to rule out aortic dissection.", ("aortic dissection",)),
      ("R/O myocardial infarction.", ("myocardial infarction",))),
    E("UL5 evaluation", "evaluate for", "UL5", "paper",
      ("CT abdomen to evaluate for appendicitis.", ("appendicitis",)),
      ("We will evaluate her for obstructive sleep apnea.", ("obstructive sleep apnea",)),
      ("Ultrasound to evaluate the gallbladder for stones.", ("stones",))),
    E("UL5 evaluation", "to assess for", "UL5", "paper",
      ("Echocardiogram to assess for pericardial effusion.", ("pericardial effusion",)),
      ("We will assess for worsening hypoxia overnight.", ("worsening hypoxia",))),
    E("UL5 evaluation", "follow-up to document resolution", "UL5", "paper",
      ("Follow-up radiographs in 6 weeks to document resolution of the pneumonia.", ("pneumonia",)),
      ("Recommend follow-up chest x-ray to ensure resolution of the right middle lobe opacity.",
       ("right middle lobe opacity",))),
    E("UL5 evaluation", "further characterize", "UL5", "paper",
      ("Recommend CT to further characterize the left renal lesion.", ("left renal lesion",)),
      ("An ultrasound is suggested to characterize the thyroid nodule.", ("thyroid nodule",))),
    E("UL5 evaluation", "correlate clinically for", "UL5", "paper",
      ("Correlate clinically for pneumonia.", ("pneumonia",)),
      ("Clinical correlation for infection is recommended.", ("infection",))),
    E("UL5 evaluation", "screen for", "UL5", "paper",
      ("Screen for depression at the next visit.", ("depression",)),
      ("We will screen her for gestational diabetes.", ("gestational diabetes",))),
    E("UL5 evaluation", "monitor / watch for", "UL5", "paper",
      ("Monitor for signs of bleeding.", ("signs of bleeding|bleeding",)),
      ("We will monitor her potassium for hyperkalemia.", ("hyperkalemia",)),
      ("We will monitor the nodule for growth.", ("growth|nodule",)),
      ("Watch for fever or rash.", ("fever", "rash"))),
    E("UL5 evaluation", "workup / to exclude", "UL5", "paper",
      ("Workup for pheochromocytoma is pending.", ("pheochromocytoma",)),
      ("She will need a workup for anemia.", ("anemia",)),
      ("CT angiogram to exclude pulmonary embolism.", ("pulmonary embolism",))),
    E("UL5 evaluation", "follow-up for a finding", "UL5", "paper",
      ("Follow-up CT in 3 months for the pulmonary nodule.", ("pulmonary nodule",)),
      ("Repeat ultrasound in 6 months to follow the ovarian cyst.", ("ovarian cyst",))),
    E("UL5 evaluation", "whether (open question)", "UL5", "bioscope paper",
      ("MRI to determine whether there is a ligament tear.", ("ligament tear",)),
      ("We will check whether she has a urinary tract infection.", ("urinary tract infection",))),
    # ---- UL5: patient-specific future contingencies ----
    E("UL5 contingency", "return if / return for", "UL5", "context paper",
      ("Return if fever develops.", ("fever",)),
      ("Return to the ED for worsening shortness of breath.",
       ("worsening shortness of breath|shortness of breath",))),
    E("UL5 contingency", "call if X develops", "UL5", "context paper",
      ("Call if she develops a rash.", ("rash",)),
      ("Please call the office for any chest pain.", ("chest pain",))),
    E("UL5 contingency", "if + patient + course", "UL5", "context paper",
      ("If she gains 3 pounds in a day, she should call us.", ("gains 3 pounds|3 pounds|weight gain",)),
      ("If his blood sugars run above 300, he will call.", ("blood sugars run above 300|blood sugars",))),
    E("UL5 contingency", "should there be / come back for", "UL5", "context paper",
      ("Should there be any bleeding, she will call.", ("bleeding",)),
      ("Come back for any worsening abdominal pain.", ("worsening abdominal pain|abdominal pain",))),
    E("UL5 contingency", "should symptoms worsen", "UL5", "context paper",
      ("Should her symptoms worsen, she will return.", ("symptoms worsen|symptoms",)),
      ("Should he develop chest pain, he should go to the emergency room.", ("chest pain",))),
)

# Sentences that must give NO hedged pair (general advice, plans, logistics, anatomy): the
# precision side of the inventory. (sentence, targets that must not appear as a pair at any level;
# empty = no pair at all allowed)
MUST_NOT: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("general advice", "Patients should drink plenty of water.", ()),
    ("general advice", "Smoking may increase the risk of lung cancer.", ()),
    ("general advice", "Vaccination is recommended for all adults over 65.", ()),
    ("logistics", "Follow up with cardiology in two weeks.", ()),
    ("logistics", "Return to clinic in 3 months.", ()),
    ("logistics", "Call the office with any questions.", ()),
    ("logistics", "Insurance will not cover it.", ()),
    ("logistics", "It is possible to schedule the MRI next week.", ()),
    ("plan", "If the patient wishes, we can discuss surgery.", ()),
    ("measurement", "Monitor blood pressure at home.", ()),
    ("descriptor", "Nonspecific bowel gas pattern.", ()),
    ("certainty", "The findings are diagnostic of a simple renal cyst.", ()),
    ("certainty", "The opacity represents a healed rib fracture.", ()),
)

# Round 2: written after the round-1 fixes and before any round-2 fix (never edited since), to test
# frames round 1 used little: coordinated targets under every level, targets with anatomy,
# predicative and clause-level frames, the way clinicians and LLMs phrase plans.
ROUND2: tuple[Entry, ...] = (
    E("coordinated", "hedge over a coordination", "UL3", "bioscope paper",
      ("Cannot exclude pneumonia or an early abscess.", ("pneumonia", "early abscess")),
      ("There may be a small effusion and adjacent atelectasis.", ("small effusion", "adjacent atelectasis"))),
    E("coordinated", "evaluation over a coordination", "UL5", "paper",
      ("Rule out pneumonia and pulmonary embolism.", ("pneumonia", "pulmonary embolism")),
      ("Monitor for bleeding and hypotension.", ("bleeding", "hypotension")),
      ("Ultrasound to evaluate for appendicitis, ovarian torsion, or ectopic pregnancy.",
       ("appendicitis", "ovarian torsion", "ectopic pregnancy"))),
    E("coordinated", "limited evaluation over a coordination", "UL4", "radiology paper",
      ("Limited evaluation for effusion or pneumothorax.", ("effusion", "pneumothorax")),),
    E("coordinated", "contingency over a coordination", "UL5", "context paper",
      ("Return for fever, chills or worsening pain.", ("fever", "chills", "worsening pain|pain")),),
    E("anatomy", "hedge on a target with anatomy", "UL3", "bioscope paper",
      ("Possible fracture of the left fifth rib.", ("fracture of the left fifth rib|fracture",)),
      ("Suspicious for a mass in the right upper lobe.", ("mass in the right upper lobe|mass",)),
      ("A tear of the rotator cuff is suspected.", ("tear of the rotator cuff|tear",))),
    E("anatomy", "evaluation of a target with anatomy", "UL5", "paper",
      ("MRI to evaluate for a tear of the medial meniscus.", ("tear of the medial meniscus|tear",)),),
    E("predicative", "finding + is possible / a concern / remains a possibility", "UL3", "bioscope radiology paper",
      ("A hairline fracture is possible.", ("hairline fracture",)),
      ("Pulmonary embolism is a concern.", ("Pulmonary embolism",)),
      ("Sarcoidosis remains a possibility.", ("Sarcoidosis",)),
      ("An infection has not been excluded.", ("infection",))),
    E("predicative", "finding + should be excluded / needs to be ruled out", "UL5", "context paper",
      ("Osteomyelitis should be excluded.", ("Osteomyelitis",)),
      ("Malignancy needs to be ruled out.", ("Malignancy",))),
    E("clause", "it is possible / likely that", "UL3", "bioscope",
      ("It is possible that she has a urinary tract infection.", ("urinary tract infection",)),
      ("I suspect that he has a rotator cuff tear.", ("rotator cuff tear",))),
    E("clause", "I think this is most likely", "UL2", "bioscope paper",
      ("I think this is most likely a muscle strain.", ("muscle strain",)),
      ("It is likely that this represents a viral infection.", ("viral infection",))),
    E("llm style", "there may be / could suggest / may indicate", "UL3", "bioscope",
      ("There may be a small fracture.", ("small fracture",)),
      ("There might be some fluid in the lungs.", ("fluid in the lungs|fluid",)),
      ("This could suggest early heart failure.", ("early heart failure",)),
      ("These findings may indicate an infection.", ("infection",))),
    E("lay plan", "keep an eye out for / report any / go to the ER if", "UL5", "context paper",
      ("Keep an eye out for signs of infection.", ("infection|signs of infection",)),
      ("She was told to report any new numbness.", ("new numbness",)),
      ("Go to the emergency room if she has chest pain.", ("chest pain",)),
      ("He knows to call with any fevers.", ("fevers",))),
    E("hedged absence", "not suspected / low suspicion / I do not think", "HEDGED_ABSENT", "radiology paper",
      ("A fracture is not suspected.", ("fracture",)),
      ("Low suspicion for meningitis.", ("meningitis",)),
      ("Infection seems unlikely.", ("Infection",)),
      ("I do not think this is cancer.", ("cancer",))),
    E("UL4 clause", "unclear if this represents", "UL4", "paper",
      ("Unclear if this represents a true nodule.", ("true nodule|nodule",)),
      ("It is uncertain whether she has a pulmonary embolism.", ("pulmonary embolism",))),
)

MUST_NOT_ROUND2: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("general advice", "Patients with diabetes should check their feet daily.", ()),
    ("general advice", "Consider a flu shot in the fall.", ()),
    ("risk discussion", "We discussed the risks of surgery, including bleeding and infection.", ("bleeding", "infection")),
    ("logistics", "She is worried about the cost of the medication.", ()),
    ("logistics", "Please call if you have questions about your medications.", ()),
    ("logistics", "The MRI may be scheduled next week.", ()),
    ("plan", "She may resume normal activity.", ()),
    ("logistics", "He could not attend the appointment.", ()),
    ("normal", "The lungs appear clear.", ()),
    ("normal", "Heart size appears normal.", ()),
)

# Round 3: written after the round-2 fixes and before any round-3 fix (never edited since): the
# clinician's spoken register of ACI-BENCH-style notes and radiology appositions.
ROUND3: tuple[Entry, ...] = (
    E("spoken", "I think / my suspicion is", "UL2", "bioscope",
      ("I think she has a sinus infection.", ("sinus infection",)),
      ("This is most likely a viral illness.", ("viral illness",))),
    E("spoken", "could be / might have / a chance", "UL3", "bioscope paper",
      ("It could be a pinched nerve or a disc problem.", ("pinched nerve", "disc problem")),
      ("There is a chance this is early Lyme disease.", ("early Lyme disease",)),
      ("She might have a small stress fracture.", ("small stress fracture",)),
      ("My suspicion is that this is gout.", ("gout",))),
    E("spoken", "rule out / make sure / see if", "UL5", "context paper",
      ("We need to make sure this is not a blood clot.", ("blood clot",)),
      ("I want to rule out a fracture.", ("fracture",)),
      ("I am going to order an x-ray to see if there is a fracture.", ("fracture",))),
    E("spoken", "differential would include / versus", "UL3", "paper",
      ("The differential would include gout versus pseudogout.", ("gout", "pseudogout")),),
    E("spoken", "does not look like / don't suspect", "HEDGED_ABSENT", "paper",
      ("This does not look like cellulitis.", ("cellulitis",)),
      ("I don't suspect a fracture.", ("fracture",))),
    E("spoken", "hard to say whether", "UL4", "paper",
      ("It is hard to say whether this is arthritis.", ("arthritis",)),),
    E("spoken", "let us know if / if you start having / in the event of", "UL5", "context paper",
      ("Let us know if you notice any blood in your stool.", ("blood in your stool|blood",)),
      ("If you start having chest pain, go to the ER.", ("chest pain",)),
      ("In the event of a fever, she will start antibiotics.", ("fever",))),
    E("radiology apposition", "finding, likely / possibly reflecting / could reflect", "UL2", "radiology paper",
      ("Nodule in the left apex, likely a granuloma.", ("granuloma",)),
      ("Suggestive but not diagnostic of sarcoidosis.", ("sarcoidosis",))),
    E("radiology apposition", "possibly reflecting / raise concern / could reflect", "UL3", "radiology paper",
      ("Increased interstitial markings, possibly reflecting early edema.", ("early edema",)),
      ("Findings raise concern for pneumonia.", ("pneumonia",)),
      ("Nonspecific, but could reflect an infectious process.", ("infectious process",))),
    E("radiology apposition", "no definite / no convincing", "HEDGED_ABSENT", "radiology paper",
      ("No definite pneumothorax.", ("pneumothorax",)),
      ("No convincing evidence of fracture.", ("fracture",))),
    E("radiology apposition", "clinical correlation to exclude", "UL5", "paper",
      ("Clinical correlation is recommended to exclude infection.", ("infection",)),),
)

MUST_NOT_ROUND3: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("history", "She is not sure when the pain started.", ("pain",)),
    ("plan", "The patient may return to work on Monday.", ()),
    ("logistics", "We will see if insurance approves the MRI.", ()),
    ("drug information", "Possible side effects include nausea and headache.", ("nausea", "headache")),
    ("logistics", "Return precautions were reviewed.", ()),
    ("logistics", "If you have any questions, please call.", ()),
)


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"^(?:a|an|the|any)\s+", "", s.strip().lower()))


def target_ok(found: str, expected: str) -> bool:
    """Found target matches one reading of ``expected``: equal, or nested with the same head word."""
    f = _norm(found)
    for alt in expected.split("|"):
        e = _norm(alt)
        if f == e:
            return True
        if f.split()[-1:] == e.split()[-1:] and (f in e or e in f):
            return True
    return False


def probe_result(sentence: str, targets: tuple[str, ...], level: str) -> tuple[bool, list[tuple[str, str, str]]]:
    """(every expected target has a pair at ``level``, the pairs cuelex produced)."""
    pairs = [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(sentence)]
    ok = all(any(lv == level and target_ok(t, exp) for _, t, lv in pairs) for exp in targets)
    return ok, pairs


def must_not_result(sentence: str, banned: tuple[str, ...]) -> tuple[bool, list[tuple[str, str, str]]]:
    """(no pair at all, or none on a banned target, the pairs cuelex produced)."""
    pairs = [(p.cue_text, p.target_text, p.level.value) for p in cuelex.extract(sentence)]
    if not banned:
        return not pairs, pairs
    return not any(target_ok(t, b) for _, t, _lv in pairs for b in banned), pairs


def audit(entries: tuple[Entry, ...], must_not: tuple[tuple[str, str, tuple[str, ...]], ...], title: str,
          failures: list[str]) -> None:
    """Print one round of the audit and collect its failures."""
    print(f"== {title}")
    by_cls: dict[str, list[int]] = {}
    entries_right = probes_right = probes_total = 0
    for entry in entries:
        results = [probe_result(s, t, entry.level) for s, t in entry.probes]
        n_ok = sum(ok for ok, _ in results)
        probes_right += n_ok
        probes_total += len(results)
        all_ok = n_ok == len(results)
        entries_right += all_ok
        c = by_cls.setdefault(entry.cls, [0, 0])
        c[0] += all_ok
        c[1] += 1
        mark = "ok " if all_ok else f"{n_ok}/{len(results)}"
        print(f"  [{mark:>4}] {entry.cls:18} {entry.cue:40} {entry.level:13} ({', '.join(entry.sources)})")
        for (s, t), (ok, pairs) in zip(entry.probes, results):
            if not ok:
                failures.append(f"{entry.level:13} want {list(t)} | {s} -> {pairs}")
    neg_right = 0
    for cls, s, banned in must_not:
        ok, pairs = must_not_result(s, banned)
        neg_right += ok
        if not ok:
            failures.append(f"MUST-NOT ({cls}) | {s} -> {pairs}")
    for cls, (r, n) in by_cls.items():
        print(f"{cls:18} entries right {r}/{n}")
    print(f"{title}: entries right (every probe) {entries_right}/{len(entries)}; "
          f"probes right {probes_right}/{probes_total}; must-not sentences clean {neg_right}/{len(must_not)}\n")


def main() -> None:
    """Print the audit per class, per entry and in total, for both rounds."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--failures", action="store_true", help="list every probe that is wrong")
    args = ap.parse_args()
    failures: list[str] = []
    audit(INVENTORY, MUST_NOT, "round 1 (inventory by cue class)", failures)
    audit(ROUND2, MUST_NOT_ROUND2, "round 2 (frames and target shapes)", failures)
    audit(ROUND3, MUST_NOT_ROUND3, "round 3 (spoken register, radiology appositions)", failures)
    if args.failures:
        print("failures:")
        for f in failures:
            print("  " + f)


if __name__ == "__main__":
    main()
