//! The list of rule families, in the order their rules are tried: within one kind of
//! [`Action`](super::declare::Action), the first rule of this order that fires is the one
//! applied. Owns only the order; the rules are in the family files.

use super::declare::Rule;
use super::{
    algebra, analysis, arithmetic, binders, definitions, groups, limits, limits_binders, logic,
    notation, order, sets, sums,
};

/// Every family's table, in the order they are tried.
pub fn families() -> [(&'static str, &'static [Rule]); 13] {
    [
        ("notation", notation::RULES),
        ("logic", logic::RULES),
        ("binders", binders::RULES),
        ("order", order::RULES),
        ("arithmetic", arithmetic::RULES),
        ("sets", sets::RULES),
        ("sums", sums::RULES),
        ("definitions", definitions::RULES),
        ("groups", groups::RULES),
        ("limits", limits::RULES),
        ("limits_binders", limits_binders::RULES),
        ("algebra", algebra::RULES),
        ("analysis", analysis::RULES),
    ]
}
