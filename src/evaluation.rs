//! Threshold sweep, precision/recall/accuracy/kappa, as ../bench/score.py. (Being written.)
