//! Whether a binder's type reads as a proposition (so the binder is a hypothesis), from syntax.
//!
//! Owns the predicate and type-constructor name lists and [`is_proposition`]; the flags on trees
//! are set by the parser, which asks here.

use crate::trees::Tree;

/// Predicate names (last component) whose applications are propositions.
const PREDICATES: &[&str] = &[
    "Prime",
    "Even",
    "Odd",
    "Continuous",
    "ContinuousOn",
    "ContinuousAt",
    "Differentiable",
    "DifferentiableAt",
    "DifferentiableOn",
    "HasDerivAt",
    "Injective",
    "Surjective",
    "Bijective",
    "InjOn",
    "SurjOn",
    "BijOn",
    "MapsTo",
    "Monotone",
    "Antitone",
    "StrictMono",
    "StrictAnti",
    "MonotoneOn",
    "AntitoneOn",
    "StrictMonoOn",
    "StrictAntiOn",
    "Irrational",
    "Squarefree",
    "Coprime",
    "Summable",
    "Tendsto",
    "Nonempty",
    "Countable",
    "Finite",
    "Infinite",
    "Disjoint",
    "Irreducible",
    "Normal",
    "Dense",
    "Nodup",
    "Sorted",
    "Pairwise",
    "Periodic",
    "Integrable",
    "Measurable",
    "Filter.Tendsto",
    "Fact",
    "Nat.Coprime",
    "Prime",
    "Subsingleton",
    "CauchySeq",
    "Convex",
    "ConvexOn",
    "ConcaveOn",
    "UniformContinuous",
    "Function.Injective",
    "Function.Surjective",
    "Cofinite",
    "Separable",
    "Solvable",
    "Commute",
    "Bounded",
    "BddAbove",
    "BddBelow",
    "Ne",
    "Eq",
    "Not",
    "And",
    "Or",
    "Iff",
    "Set.Finite",
    "Set.Infinite",
    "True",
    "False",
];

/// Type constructors whose applications are types, never propositions.
const TYPE_CONSTRUCTORS: &[&str] = &[
    "Set",
    "Finset",
    "Fin",
    "List",
    "Multiset",
    "Array",
    "Polynomial",
    "MvPolynomial",
    "Matrix",
    "ZMod",
    "Subgroup",
    "Submodule",
    "Subring",
    "Subfield",
    "Ideal",
    "Type",
    "Sort",
    "Option",
    "EuclideanSpace",
    "Equiv",
    "Filter",
    "Module",
    "Basis",
    "LinearMap",
    "Units",
    "Finsupp",
    "PowerSeries",
    "IntermediateField",
    "Subalgebra",
    "Submonoid",
    "Sylow",
    "MonoidHom",
    "RingHom",
    "AlgHom",
    "Perm",
    "Equiv.Perm",
    "QuotientGroup",
    "Quotient",
    "Setoid",
    // Classes that carry data (instances are values, not proofs).
    "Fintype",
    "DecidableEq",
    "DecidablePred",
    "Decidable",
    "Inhabited",
    "Invertible",
    "Group",
    "AddGroup",
    "CommGroup",
    "Monoid",
    "Ring",
    "CommRing",
    "Field",
    "TopologicalSpace",
    "MetricSpace",
    "NormedAddCommGroup",
    "NormedSpace",
    "InnerProductSpace",
    "Algebra",
];

/// An application (or constant) of a name we know nothing about: a proposition or a type,
/// undecidable from syntax (`T2Space X`, `Invertible f`).
pub(super) fn is_unknown_application(mut ty: &Tree) -> bool {
    // Down the result of `∀`/`→` chains in a loop: a chain can be as long as the statement.
    while ty.label.starts_with("∀") || ty.label.starts_with(" _ → _ ") {
        match ty.children.last() {
            Some(last) => ty = last,
            None => return false,
        }
    }
    if ty.children.is_empty() || !ty.label.ends_with(" _ ") {
        return false;
    }
    let head = ty.label.trim_end_matches(" _ ").trim();
    !head.is_empty()
        && !head.contains(' ')
        && !TYPE_CONSTRUCTORS.contains(&head)
        && !TYPE_CONSTRUCTORS.contains(&head.rsplit('.').next().unwrap_or(head))
}

/// Whether a binder's type reads as a proposition (so the binder is a hypothesis).
pub fn is_proposition(ty: &Tree) -> bool {
    // The result of an `→`/`∀` chain decides; walk it in a loop (chains can be as long as the
    // statement, and this runs on every binder).
    let mut ty = ty;
    loop {
        let l = ty.label.as_str();
        let next = if l == " _ → _ " {
            ty.children.get(1)
        } else if l.starts_with("∀") {
            ty.children.last()
        } else {
            break;
        };
        match next {
            Some(n) if !ty.unparsed => ty = n,
            _ => return false,
        }
    }
    let l = ty.label.as_str();
    if ty.unparsed {
        return false;
    }
    if let Some(op) = l.strip_prefix(" _ ").and_then(|r| r.strip_suffix(" _ ")) {
        return match op {
            "→" => false, // handled by the loop above
            "=" | "≠" | "<" | ">" | "≤" | "≥" | "∈" | "∉" | "⊆" | "⊂" | "⊇" | "⊃" | "⊊" | "∣"
            | "∤" | "∧" | "∨" | "↔" | "≡" | "≈" | "==" => true,
            _ => false,
        };
    }
    if l.starts_with(" _ ≡ _ [") {
        return true;
    }
    if l == "¬" || l.starts_with("∃") {
        return true;
    }
    // (`∀ x, B` is a proposition when its body is, `∀ i, TopologicalSpace (X i)` a type: the
    // loop above went down to the body.)
    if matches!(l, "True" | "False") {
        return true;
    }
    // Applications `Nat.Prime _ `, field access ` _ .Prime`, bare predicate constants.
    let head = l.trim_end_matches(" _ ").trim();
    let head = head.strip_prefix("_ ").unwrap_or(head).trim_start_matches('@');
    let last = head.rsplit('.').next().unwrap_or(head);
    if head.is_empty() {
        return false;
    }
    PREDICATES.contains(&head)
        || PREDICATES.contains(&last)
        || (last.starts_with("Is") && last.chars().nth(2).is_some_and(char::is_uppercase))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{sexp, tree};

    #[test]
    fn instance_and_type_binders() {
        let t = tree("theorem t (G : Type*) [Group G] (H : Subgroup G) (_ : H.Normal) : Sort u");
        assert_eq!(
            sexp(&t),
            "('theorem' (' _  _  _  _ : _ ' (' _ : _ ' 'G'* 'Type*') ('[ _ ]' ('Group _ ' 'G'*)) \
             (' _ : _ ' 'H'* ('Subgroup _ ' 'G'*)) (' _ : _ ' '_'# (' _ .Normal' 'H'*)) ('Sort _ ' 'u')))"
        );
    }
}
