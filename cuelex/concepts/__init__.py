"""Concepts: the vocabulary tables, concept linking, normalisation, semantic matching, dedup."""
