//! The deadline of one `transted-lite` judgement as the rules see it: a cheap "has time run
//! out?" that the canonical passes ask at every node and successor generation asks at every
//! node, binder pair and binder swap, so that the work done past the deadline is at most one
//! node's rule attempt (or one small binder distance), whatever the statement's size.
//!
//! Owns only the question; what stopping means (an "out of time" result, never a score) is
//! decided in `mod.rs`. Reading the clock costs one `Instant::now()` (a vDSO call, tens of
//! nanoseconds), far below any rule attempt it guards.

use std::time::Instant;

/// A deadline, or none (the rules then never stop early).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    deadline: Option<Instant>,
}

impl Clock {
    /// No deadline: every pass and every move list runs to the end.
    pub fn unlimited() -> Clock {
        Clock { deadline: None }
    }

    /// Time runs out at `deadline` (none: never).
    pub fn until(deadline: Option<Instant>) -> Clock {
        Clock { deadline }
    }

    /// The deadline, if any.
    pub fn deadline(self) -> Option<Instant> {
        self.deadline
    }

    /// Has the deadline passed?
    #[inline]
    pub fn passed(self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn unlimited_never_passes_and_a_past_deadline_always_has() {
        assert!(!Clock::unlimited().passed());
        let past =
            Instant::now().checked_sub(Duration::from_millis(1)).unwrap_or_else(Instant::now);
        assert!(Clock::until(Some(past)).passed());
        let later = Instant::now() + Duration::from_secs(3600);
        assert!(!Clock::until(Some(later)).passed());
        assert_eq!(Clock::until(Some(later)).deadline(), Some(later));
    }
}
