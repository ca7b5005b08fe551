"""A collusion report as findings: one ``collusion_suspected`` per suspected pair or ring,
with its score, the strongest feature and the hands that show it (the detector and its
citations: ``pipelines.detectors.collusion``)."""

from __future__ import annotations

from pipelines.detectors.collusion import CollusionReport
from pipelines.detectors.collusion_features import FEATURES
from replayer.findings import Finding, FindingKind


def collusion_findings(report: CollusionReport) -> list[Finding]:
    """One ``collusion_suspected`` finding per suspected pair or ring."""
    findings = []
    for item in report.suspicions:
        strongest = max(FEATURES, key=lambda f: (item.features[f], f))
        findings.append(
            Finding(
                kind=FindingKind.COLLUSION_SUSPECTED,
                subject=item.subject,
                citation=item.citation,
                reason=(
                    f"collusion score {item.score:.2f} over {item.shared_hands} shared hands "
                    f"(strongest: {strongest} z={item.features[strongest]:.2f})"
                ),
                expected={"score_below": report.threshold},
                recorded=item.score,
                difference=round(item.score - report.threshold, 4),
                detail={
                    "players": list(item.players),
                    "features": item.features,
                    "shared_hands": item.shared_hands,
                    "evidence_hands": list(item.evidence),
                    "seated_together": item.seated_together,
                    "window": {"as_of": report.as_of, "days": report.window_days},
                },
            )
        )
    return findings
