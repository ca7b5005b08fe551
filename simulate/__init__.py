"""Synthetic days of casino play with planted faults and collusion (ground truth in a
manifest), for the nightly reconciliation's tests, demos and benchmarks.

``generate_day(seed, day, hands=..., out=...) -> DayManifest``; see ``day``.
"""

from simulate.day import generate_day, population
from simulate.manifest import CollusionGroup, DayManifest, PlantedFault

__all__ = ["CollusionGroup", "DayManifest", "PlantedFault", "generate_day", "population"]
