"""Drift detection: DDM (Gama et al. 2004)."""

from .ddm import DDM, DRIFT, NONE, WARNING, ddm_reset, ddm_step

__all__ = ["DDM", "ddm_step", "ddm_reset", "NONE", "WARNING", "DRIFT"]
