"""An independent poker population for measuring the collusion detector.

Written apart from the detector (``pipelines.detectors.collusion``) and from the project's
simulator (``simulate``): the honest players are the textbook archetypes (rock,
tight-aggressive, loose-aggressive, calling station, maniac: preflop by the Chen formula,
postflop by made-hand class and pot odds), and the colluders follow the published
descriptions of each method (``methods``), not the detector's features. Every hand is
dealt, played and settled by PokerKit (``hand``): the oracle decides who wins what, so a
hand is legal by construction. PokerKit is a test dependency; this package lives beside
the tests and the benchmarks and is never imported by the project.

``room`` seats the population (tables, sessions, groups that sit together, teams spread
over tables, honest friends who always sit together) and plays it round by round.
"""
