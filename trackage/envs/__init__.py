"""Environments for learning programs over trackage games: a PettingZoo AEC environment per
title (:mod:`.zoo`) with the observation vector of :mod:`.observe`."""

from __future__ import annotations

from .zoo import ENVS, MAX_ACTIONS, TrackageEnv, env, make, raw_env

__all__ = ["ENVS", "MAX_ACTIONS", "TrackageEnv", "env", "make", "raw_env"]
