//! Mathlib's (and Lean core's) term-level declarations in the namespaces statements open, for
//! resolving short names the way Lean's `resolveGlobalName` does.
//!
//! What it holds: for each namespace `X`, the short names of the definitions that land in `X`
//! (`def`, `noncomputable def`, `abbrev`, `irreducible_def`, `opaque`, and the names of
//! `structure`/`class`/`inductive` declarations, plus constructors and fields that statements
//! commonly write, such as `Complex.re`), split into the names reachable after `open X` and the
//! `protected` ones, together with the scoped notations `X` declares. Theorems, lemmas and
//! instances are not listed.
//!
//! How it was collected: by reading the Lean source of `leanprover-community/mathlib4` (paths
//! `Mathlib/...`) and of `leanprover/lean4` (paths `src/Init/...`) file by file and noting every
//! declaration that lands in the namespace, either as `def X.foo` or as `def foo` inside a
//! `namespace X` ... `end X` block. The files read are listed per namespace in `sources`. An entry
//! marked `complete: true` lists every definition its namespace's files declare; one marked
//! `complete: false` lists only what the files in `sources` declare, so a name missing from it
//! may still exist (a resolver should then treat the namespace as possibly holding more names and
//! prefer "ambiguous / unknown" over a rewrite).
//!
//! `protected`: a protected declaration `X.foo` is not reachable by the short name `foo` after
//! `open X`; it must be written `X.foo` (or reached with dot notation). So under `open Real`, `pi`
//! does not resolve to `Real.pi` (write `π` or `Real.pi`), while `sqrt` resolves to `Real.sqrt`.
//!
//! Private declarations and declarations in `Mathlib.Meta`/tactic namespaces are omitted. Within
//! each entry `names` is sorted by byte order (so `binary_search` works) and has no duplicates.
//! Where the index held several versions of a file, the names are those of the version read; a
//! few definitions moved between versions (noted in the comments).
//!
//! Data only (resolving is `scope`'s and `resolve`'s). Tables are out of `rustfmt`, several names
//! a line; where an entry's names come from several files, a comment above says which is whose.

/// One namespace's declarations.
pub struct NamespaceNames {
    /// `Real`, `Nat`, ... (`""` for the root namespace)
    pub namespace: &'static str,
    /// The files read, relative to the repository (`Mathlib/...` or `src/Init/...` for core).
    pub sources: &'static [&'static str],
    /// Every file of the namespace's definitions was read.
    pub complete: bool,
    /// Short names of the definitions reachable after `open` (not protected).
    pub names: &'static [&'static str],
    /// Short names of protected definitions (reachable only qualified).
    pub protected: &'static [&'static str],
    /// Scoped notations the namespace declares (`open X` or `open scoped X` activates them): the
    /// token as written (`π`, `!`, `𝓝`) and the declaration it stands for (`Real.pi`).
    pub scoped_notations: &'static [(&'static str, &'static str)],
}

/// Number-valued functions of fixed number types: full name and type (`"Real.sqrt", "ℝ → ℝ"`).
#[rustfmt::skip]
pub const SIGNATURES: &[(&str, &str)] = &[
    // Mathlib/Data/Real/Sqrt.lean
    ("Real.sqrt", "ℝ → ℝ"),
    // Mathlib/Data/Complex/Exponential.lean, Mathlib/Data/Complex/Trigonometric.lean
    ("Complex.exp", "ℂ → ℂ"), ("Complex.sin", "ℂ → ℂ"), ("Complex.cos", "ℂ → ℂ"),
    ("Complex.tan", "ℂ → ℂ"), ("Complex.cot", "ℂ → ℂ"), ("Complex.sinh", "ℂ → ℂ"),
    ("Complex.cosh", "ℂ → ℂ"), ("Complex.tanh", "ℂ → ℂ"), ("Real.exp", "ℝ → ℝ"),
    ("Real.sin", "ℝ → ℝ"), ("Real.cos", "ℝ → ℝ"), ("Real.tan", "ℝ → ℝ"), ("Real.cot", "ℝ → ℝ"),
    ("Real.sinh", "ℝ → ℝ"), ("Real.cosh", "ℝ → ℝ"), ("Real.tanh", "ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean
    ("Real.pi", "ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Log/Basic.lean, Log/Base.lean
    ("Real.log", "ℝ → ℝ"), ("Real.logb", "ℝ → ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
    ("Real.rpow", "ℝ → ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Trigonometric/Inverse.lean, Arctan.lean
    ("Real.arcsin", "ℝ → ℝ"), ("Real.arccos", "ℝ → ℝ"), ("Real.arctan", "ℝ → ℝ"),
    // Mathlib/Data/Real/Sign.lean
    ("Real.sign", "ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Arsinh.lean
    ("Real.arsinh", "ℝ → ℝ"),
    // src/Init/Prelude.lean, src/Init/Data/Nat/*.lean
    ("Nat.succ", "ℕ → ℕ"), ("Nat.pred", "ℕ → ℕ"), ("Nat.add", "ℕ → ℕ → ℕ"),
    ("Nat.sub", "ℕ → ℕ → ℕ"), ("Nat.mul", "ℕ → ℕ → ℕ"), ("Nat.div", "ℕ → ℕ → ℕ"),
    ("Nat.mod", "ℕ → ℕ → ℕ"), ("Nat.pow", "ℕ → ℕ → ℕ"), ("Nat.gcd", "ℕ → ℕ → ℕ"),
    ("Nat.log2", "ℕ → ℕ"), ("Nat.sqrt", "ℕ → ℕ"),
    // src/Init/Data/Nat/Lcm.lean: `def lcm (m n : ℕ) : ℕ`
    ("Nat.lcm", "ℕ → ℕ → ℕ"),
    // Mathlib/Data/Rat/Sqrt.lean: `def sqrt (q : ℚ) : ℚ`
    ("Rat.sqrt", "ℚ → ℚ"),
    // Mathlib/Data/Nat/Factorial/Basic.lean, Choose/Basic.lean
    ("Nat.factorial", "ℕ → ℕ"), ("Nat.ascFactorial", "ℕ → ℕ → ℕ"),
    ("Nat.descFactorial", "ℕ → ℕ → ℕ"), ("Nat.choose", "ℕ → ℕ → ℕ"),
    ("Nat.multichoose", "ℕ → ℕ → ℕ"),
    // Mathlib/Data/Nat/Prime/Defs.lean, Totient.lean, Log.lean, Fib/Basic.lean
    ("Nat.minFac", "ℕ → ℕ"), ("Nat.totient", "ℕ → ℕ"), ("Nat.log", "ℕ → ℕ → ℕ"),
    ("Nat.clog", "ℕ → ℕ → ℕ"), ("Nat.fib", "ℕ → ℕ"),
    // src/Init/Data/Int/*.lean
    ("Int.natAbs", "ℤ → ℕ"), ("Int.toNat", "ℤ → ℕ"), ("Int.sign", "ℤ → ℤ"), ("Int.neg", "ℤ → ℤ"),
    ("Int.add", "ℤ → ℤ → ℤ"), ("Int.sub", "ℤ → ℤ → ℤ"), ("Int.mul", "ℤ → ℤ → ℤ"),
    ("Int.pow", "ℤ → ℕ → ℤ"), ("Int.negSucc", "ℕ → ℤ"), ("Int.ofNat", "ℕ → ℤ"),
    ("Int.negOfNat", "ℕ → ℤ"), ("Int.subNatNat", "ℕ → ℕ → ℤ"), ("Int.ediv", "ℤ → ℤ → ℤ"),
    ("Int.emod", "ℤ → ℤ → ℤ"), ("Int.tdiv", "ℤ → ℤ → ℤ"), ("Int.tmod", "ℤ → ℤ → ℤ"),
    ("Int.fdiv", "ℤ → ℤ → ℤ"), ("Int.fmod", "ℤ → ℤ → ℤ"), ("Int.bmod", "ℤ → ℕ → ℤ"),
    ("Int.bdiv", "ℤ → ℕ → ℤ"), ("Int.gcd", "ℤ → ℤ → ℕ"), ("Int.lcm", "ℤ → ℤ → ℕ"),
    // Mathlib/Data/Int/Sqrt.lean
    ("Int.sqrt", "ℤ → ℤ"),
    // Mathlib/Data/Complex/*.lean
    ("Complex.re", "ℂ → ℝ"), ("Complex.im", "ℂ → ℝ"), ("Complex.I", "ℂ"),
    ("Complex.ofReal'", "ℝ → ℂ"), ("Complex.abs", "ℂ → ℝ"), ("Complex.normSq", "ℂ → ℝ"),
    ("Complex.arg", "ℂ → ℝ"), ("Complex.log", "ℂ → ℂ"), ("Complex.cpow", "ℂ → ℂ → ℂ"),
];

/// Functions whose parameter is generic but does not take every number type, for choosing
/// between overloads: the number types an argument may have.
pub const ACCEPTS: &[(&str, &[&str])] = &[
    // Mathlib/Algebra/Order/Group/Unbundled/Abs.lean: `abs` needs `Lattice α` and `Neg α`
    // (`|a| = a ⊔ -a`): ℤ ℚ ℝ have both, ℕ has no negation, ℂ no lattice.
    ("abs", &["ℤ", "ℚ", "ℝ"]),
];

/// Global (unscoped) notations statements write, token and what it stands for, with the file.
#[rustfmt::skip]
pub const GLOBAL_NOTATIONS: &[(&str, &str)] = &[
    // Mathlib/Data/Real/Basic.lean: `notation "ℝ" => Real`
    ("ℝ", "Real"),
    // Mathlib/Data/Real/Sqrt.lean: `prefix:max "√" => Real.sqrt` (global, not scoped)
    ("√", "Real.sqrt"),
    // Mathlib/Algebra/Order/Floor/Defs.lean
    ("⌊a⌋₊", "Nat.floor"), ("⌈a⌉₊", "Nat.ceil"), ("⌊a⌋", "Int.floor"), ("⌈a⌉", "Int.ceil"),
    // Mathlib/Data/Nat/ModEq.lean: `notation:50 a " ≡ " b " [MOD " n "]" => ModEq n a b`
    ("a ≡ b [MOD n]", "Nat.ModEq"),
    // Mathlib/Data/Int/ModEq.lean
    ("a ≡ b [ZMOD n]", "Int.ModEq"),
    // `ℕ`, `ℤ`, `ℚ`: Mathlib's notations for `Nat`, `Int`, `Rat` (files not read; listed so the
    // table names every number-type token it uses)
    ("ℕ", "Nat"), ("ℤ", "Int"), ("ℚ", "Rat"),
    // Mathlib/Data/Complex/Basic.lean: `notation "ℂ" => Complex`, `infixl:72 " ×ℂ " => Set.reProdIm`
    ("ℂ", "Complex"), ("×ℂ", "Complex.Set.reProdIm"),
    // Mathlib/Data/Set/Defs.lean: `prefix:100 "𝒫 " => powerset`
    ("𝒫", "Set.powerset"),
    // Mathlib/Data/Set/Operations.lean
    ("f ⁻¹' s", "Set.preimage"), ("f '' s", "Set.image"),
    ("s ×ˢ t", "SProd.sprod (Set.prod on sets)"),
    // Mathlib/Order/SetNotation.lean
    ("⋃₀", "Set.sUnion"), ("⋂₀", "Set.sInter"), ("⋃ i, s i", "Set.iUnion"),
    ("⋂ i, s i", "Set.iInter"), ("⨆ i, f i", "iSup"), ("⨅ i, f i", "iInf"),
    // Mathlib/Logic/Function/Defs.lean
    ("f ∘' g", "Function.dcomp"), ("△(x)", "Function.diag"),
    // Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (global `syntax`, not scoped)
    ("∑ x ∈ s, f x", "Finset.sum"), ("∏ x ∈ s, f x", "Finset.prod"),
    ("∑ x, f x", "Finset.sum Finset.univ"), ("∏ x, f x", "Finset.prod Finset.univ"),
    // Mathlib/Algebra/Order/Group/Unbundled/Abs.lean: `macro:max atomic("|" noWs) a:term noWs "|"`
    ("|a|", "abs"), ("|a|ₘ", "mabs"),
];

#[rustfmt::skip]
pub const NAMESPACES: &[NamespaceNames] = &[
    NamespaceNames {
        namespace: "Real", sources: &[
            "Mathlib/Data/Real/Basic.lean", "Mathlib/Data/Real/Sqrt.lean",
            "Mathlib/Data/Real/Sign.lean", "Mathlib/Data/Complex/Exponential.lean",
            "Mathlib/Data/Complex/Trigonometric.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Inverse.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean",
            "Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
            "Mathlib/Analysis/SpecialFunctions/Log/Base.lean",
            "Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
            "Mathlib/Analysis/SpecialFunctions/Arsinh.lean",
            "Mathlib/Data/NNReal/Defs.lean (first 16000 characters: `_root_.Real.toNNReal`)",
            "Mathlib/Analysis/SpecialFunctions/Gamma/Basic.lean (`def Gamma (s : ℝ) : ℝ := (Complex.Gamma s).re` inside `namespace Real`, via indexed excerpts)",
            "Mathlib/Data/NNReal/Defs.lean (`def nnabs` inside `namespace Real`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Trigonometric/Inverse.lean: arccos, arcsin, sinPartialHomeomorph;
            // Trigonometric/Arctan.lean: arctan, tanOrderIso, tanPartialHomeomorph;
            // Analysis/SpecialFunctions/Arsinh.lean: arsinh, sinhEquiv, sinhHomeomorph,
            // sinhOrderIso; Data/Real/Basic.lean (structure field): cauchy;
            // Data/Complex/Exponential.lean: cos, cosh, cot, exp, sin, sinh, tan, tanh;
            // Data/Real/Basic.lean: equivCauchy, mk, ringEquivCauchy; Log/Basic.lean: log;
            // Log/Base.lean: logb; Data/Real/Basic.lean (constructor): ofCauchy; Pow/Real.lean:
            // rpow; Data/Real/Sign.lean: sign; Data/Real/Sqrt.lean: sqrt; Data/NNReal/Defs.lean
            // (`def _root_.Real.toNNReal`): toNNReal;
            // Analysis/SpecialFunctions/Gamma/Basic.lean (via indexed excerpts): Gamma;
            // Data/NNReal/Defs.lean (`def nnabs : ℝ →*₀ ℝ≥0`, via indexed excerpts): nnabs
            "Gamma", "arccos", "arcsin", "arctan", "arsinh", "cauchy", "cos", "cosh", "cot",
            "equivCauchy", "exp", "log", "logb", "mk", "nnabs", "ofCauchy", "ringEquivCauchy",
            "rpow", "sign", "sin", "sinPartialHomeomorph", "sinh", "sinhEquiv", "sinhHomeomorph",
            "sinhOrderIso", "sqrt", "tan", "tanOrderIso", "tanPartialHomeomorph", "tanh",
            "toNNReal",
        ],
        protected: &["pi"], // Trigonometric/Basic.lean: `protected noncomputable def pi`
        scoped_notations: &[
            // Trigonometric/Basic.lean
            ("π", "Real.pi"),
            // Data/Complex/Exponential.lean
            ("rexp", "Real.exp"),
        ],
    },
    NamespaceNames {
        namespace: "Nat", sources: &[
            "src/Init/Prelude.lean", "src/Init/Data/Nat/Basic.lean", "src/Init/Data/Nat/Gcd.lean",
            "src/Init/Data/Nat/Log2.lean", "src/Init/Data/Nat/Sqrt/Basic.lean",
            "Mathlib/Data/Nat/Factorial/Basic.lean", "Mathlib/Data/Nat/Choose/Basic.lean",
            "Mathlib/Data/Nat/Prime/Defs.lean", "Mathlib/Data/Nat/Totient.lean",
            "Mathlib/Data/Nat/Log.lean", "Mathlib/Data/Nat/Fib/Basic.lean",
            "Mathlib/Algebra/Order/Floor/Defs.lean",
            "Mathlib/Data/Nat/ModEq.lean (definition and notation only, via its indexed excerpt)",
            "Mathlib/NumberTheory/Divisors.lean (`divisors`, `properDivisors`, `divisorsAntidiagonal`, `Perfect`, via indexed excerpts)",
            "Mathlib/Data/Nat/Digits.lean (`def digits` and its `digitsAux*` helpers, via indexed excerpts)",
            "Mathlib/Data/Nat/Factors.lean, Data/Nat/PrimeFin.lean, Data/Nat/Factorization/Defs.lean (`primeFactorsList`, `primeFactors`, `factorization`, via indexed excerpts)",
            "Lean core / Batteries `Nat.Coprime` (`@[reducible] def Coprime (m n : Nat) : Prop := gcd m n = 1`, via indexed excerpts)",
            "Mathlib/Data/Nat/Count.lean, Nth.lean, Dist.lean (`def count`, `noncomputable def nth`, `def dist`, via indexed excerpts)",
            "Mathlib/Logic/Function/Iterate.lean (`def Nat.iterate`, via indexed excerpts)",
            "Mathlib/Data/Nat/Find.lean (`protected def find`), Mathlib/SetTheory/Cardinal/Finite.lean (`protected def Nat.card`), src/Init/Data/Cast.lean (`protected def Nat.cast`), via indexed excerpts",
            "Mathlib/Data/Int/GCD.lean (`def xgcd`, `def gcdA`, named helper `xgcdAux`, via indexed excerpts)",
            "Mathlib/NumberTheory/PrimeCounting.lean (`def primeCounting`, `primeCounting'` and `scoped[Nat.Prime] notation \"π\"`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Mathlib/Data/Nat/ModEq.lean: ModEq; Mathlib/Data/Nat/Prime/Defs.lean: Prime, Primes,
            // decidablePrime', minFac, minFacAux; src/Init/Data/Nat/Basic.lean: all, allTR, any,
            // anyTR, blt, fold, foldRev, foldTR, repeat, repeatTR;
            // Mathlib/Data/Nat/Factorial/Basic.lean: ascFactorial, descFactorial, factorial;
            // src/Init/Prelude.lean: beq, ble, pred; Mathlib/Algebra/Order/Floor/Defs.lean: ceil,
            // floor; Mathlib/Data/Nat/Choose/Basic.lean: choose, fast_choose, multichoose;
            // Mathlib/Data/Nat/Log.lean: clog, log, logC; Mathlib/Data/Nat/Fib/Basic.lean: fastFib,
            // fastFibAux, fib; src/Init/Data/Nat/Gcd.lean: gcd, prod_dvd_and_dvd_of_dvd_prod;
            // src/Init/Data/Nat/Log2.lean: log2; src/Init/Data/Nat/Sqrt/Basic.lean: sqrt;
            // src/Init/Prelude.lean (constructor): succ, zero; Mathlib/Data/Nat/Totient.lean:
            // totient;
            // Lean core / Batteries Nat/Gcd (`@[reducible] def Coprime`, via indexed excerpts):
            // Coprime; NumberTheory/Divisors.lean: Perfect, divisors, divisorsAntidiagonal,
            // properDivisors; Mathlib/Data/Nat/Digits.lean: digits, digitsAux, digitsAux0,
            // digitsAux1 (via indexed excerpts); Data/Nat/Factorization/Defs.lean: factorization;
            // Data/Nat/PrimeFin.lean: primeFactors; Data/Nat/Factors.lean (formerly `factors`):
            // primeFactorsList;
            // Mathlib/Data/Nat/Count.lean: count; Mathlib/Data/Nat/Dist.lean (so `dist` under `open
            // Nat` has two readings, with root `dist`): dist; Mathlib/Logic/Function/Iterate.lean
            // (`def Nat.iterate`; `f^[n]` is its global notation): iterate;
            // Mathlib/Data/Nat/Nth.lean (noncomputable def): nth (all via indexed excerpts);
            // Mathlib/Data/Int/GCD.lean (via indexed excerpts): gcdA, xgcd, xgcdAux;
            // Mathlib/NumberTheory/PrimeCounting.lean (via indexed excerpts; its `π`/`π'` notations
            // are scoped in `Nat.Prime` in current Mathlib, in `Nat` in some 2023 versions):
            // primeCounting, primeCounting'
            "Coprime", "ModEq", "Perfect", "Prime", "Primes", "all", "allTR", "any", "anyTR",
            "ascFactorial", "beq", "ble", "blt", "ceil", "choose", "clog", "count",
            "decidablePrime'", "descFactorial", "digits", "digitsAux", "digitsAux0", "digitsAux1",
            "dist", "divisors", "divisorsAntidiagonal", "factorial", "factorization", "fastFib",
            "fastFibAux", "fast_choose", "fib", "floor", "fold", "foldRev", "foldTR", "gcd", "gcdA",
            "iterate", "log", "log2", "logC", "minFac", "minFacAux", "multichoose", "nth", "pred",
            "primeCounting", "primeCounting'", "primeFactors", "primeFactorsList",
            "prod_dvd_and_dvd_of_dvd_prod", "properDivisors", "repeat", "repeatTR", "sqrt", "succ",
            "totient", "xgcd", "xgcdAux", "zero",
        ],
        protected: &[
            // src/Init/Prelude.lean
            "add", "decEq", "div", "le", "lt", "mod", "modCore", "mul", "pow", "sub",
            // Mathlib/SetTheory/Cardinal/Finite.lean (`protected def Nat.card`);
            // src/Init/Data/Cast.lean (`protected def Nat.cast`); Mathlib/Data/Nat/Find.lean
            // (`protected def find`)
            "card", "cast", "find",
        ],
        scoped_notations: &[
            // Mathlib/Data/Nat/Factorial/Basic.lean: `scoped notation:10000 n "!" => Nat.factorial n`
            ("!", "Nat.factorial"),
            // Mathlib/Data/Nat/Totient.lean
            ("φ", "Nat.totient"),
        ],
    },
    NamespaceNames {
        namespace: "Int", sources: &[
            "src/Init/Data/Int/Basic.lean", "src/Init/Data/Int/DivMod/Basic.lean",
            "src/Init/Data/Int/Gcd.lean", "Mathlib/Algebra/Order/Floor/Defs.lean",
            "Mathlib/Data/Int/Sqrt.lean", "Mathlib/Data/Int/Log.lean",
            "Mathlib/Data/Int/ModEq.lean (definition and notation only, via its indexed excerpt)",
            "Mathlib/Data/Int/Cast/Lemmas.lean (`def castRingHom`), Mathlib/Data/Int/Defs.lean (`def natMod`), via indexed excerpts",
        ],
        complete: false, names: &[
            // Mathlib/Data/Int/ModEq.lean: ModEq; src/Init/Data/Int/Basic.lean: NonNeg, natAbs,
            // negOfNat, sign, subNatNat, toNat, toNat'; src/Init/Data/Int/DivMod/Basic.lean: bdiv,
            // bmod, ediv, emod, fdiv, fmod, tdiv, tmod; Mathlib/Algebra/Order/Floor/Defs.lean:
            // ceil, floor, fract; Mathlib/Data/Int/Log.lean: clog, clogZPowGi, log, zpowLogGi;
            // src/Init/Data/Int/Gcd.lean: gcd, lcm; src/Init/Data/Int/Basic.lean (constructor):
            // negSucc, ofNat; Mathlib/Data/Int/Sqrt.lean: sqrt;
            // Mathlib/Data/Int/Cast/Lemmas.lean (`ℤ →+* α`, via indexed excerpts): castRingHom;
            // Mathlib/Data/Int/Defs.lean (via indexed excerpts): natMod
            "ModEq", "NonNeg", "bdiv", "bmod", "castRingHom", "ceil", "clog", "clogZPowGi", "ediv",
            "emod", "fdiv", "floor", "fmod", "fract", "gcd", "lcm", "log", "natAbs", "natMod",
            "negOfNat", "negSucc", "ofNat", "sign", "sqrt", "subNatNat", "tdiv", "tmod", "toNat",
            "toNat'", "zpowLogGi",
        ],
        protected: &[
            // src/Init/Data/Int/Basic.lean
            "add", "cast", "decEq", "le", "lt", "mul", "neg", "pow", "sub",
        ],
        scoped_notations: &[
            // src/Init/Data/Int/Basic.lean: `scoped notation "-[" n "+1]" => negSucc n`
            ("-[n+1]", "Int.negSucc"),
        ],
    },
    NamespaceNames {
        namespace: "Complex", sources: &[
            "Mathlib/Data/Complex/Basic.lean", "Mathlib/Data/Complex/Abs.lean",
            "Mathlib/Data/Complex/Exponential.lean (first 16000 characters)",
            "Mathlib/Data/Complex/Trigonometric.lean (first 16000 characters)",
            "Mathlib/Analysis/SpecialFunctions/Complex/Arg.lean (the `arg` definition, via its indexed excerpt)",
            "Mathlib/Analysis/SpecialFunctions/Complex/Log.lean (the `log` definition, via its indexed excerpt)",
            "Mathlib/Analysis/SpecialFunctions/Pow/Complex.lean (the `cpow` definition, via its indexed excerpt)",
            "Mathlib/Analysis/SpecialFunctions/Gamma/Basic.lean (`Complex.Gamma`, named by `Real.Gamma`'s definition, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Data/Complex/Basic.lean: I, equivRealProd, imAddGroupHom, normSq, ofReal,
            // reAddGroupHom; Data/Complex/Abs.lean (`def _root_.Complex.abs`; newer Mathlib
            // deprecates it for `‖z‖`): abs; Analysis/SpecialFunctions/Complex/Arg.lean: arg;
            // Data/Complex/Abs.lean: cauSeqAbs, cauSeqConj, cauSeqIm, cauSeqRe, limAux;
            // Data/Complex/Exponential.lean: cos, cosh, cot, exp, exp', expMonoidHom, sin, sinh,
            // tan, tanh; Analysis/SpecialFunctions/Pow/Complex.lean: cpow; Data/Complex/Basic.lean
            // (structure field): im, re; Analysis/SpecialFunctions/Complex/Log.lean: log;
            // Data/Complex/Basic.lean (constructor): mk; Data/Complex/Basic.lean (the coercion in
            // the version read): ofReal';
            // Analysis/SpecialFunctions/Gamma/Basic.lean (named as `Complex.Gamma` by
            // `Real.Gamma`'s definition): Gamma
            "Gamma", "I", "abs", "arg", "cauSeqAbs", "cauSeqConj", "cauSeqIm", "cauSeqRe", "cos",
            "cosh", "cot", "cpow", "equivRealProd", "exp", "exp'", "expMonoidHom", "im",
            "imAddGroupHom", "limAux", "log", "mk", "normSq", "ofReal", "ofReal'", "re",
            "reAddGroupHom", "sin", "sinh", "tan", "tanh",
        ],
        protected: &[], scoped_notations: &[
            // Data/Complex/Exponential.lean
            ("cexp", "Complex.exp"),
        ],
    },
    NamespaceNames {
        namespace: "NNReal", sources: &[
            "Mathlib/Data/NNReal/Defs.lean (first 16000 characters)", "Mathlib/Data/Real/Sqrt.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean (first 16000 characters)",
        ],
        complete: false, names: &[
            // Data/NNReal/Defs.lean: gi, orderIsoIccZeroCoe, toReal, toRealHom;
            // Analysis/SpecialFunctions/Trigonometric/Basic.lean (not protected here): pi;
            // Data/Real/Sqrt.lean: sqrt, sqrtHom
            "gi", "orderIsoIccZeroCoe", "pi", "sqrt", "sqrtHom", "toReal", "toRealHom",
        ],
        protected: &[], scoped_notations: &[
            // Data/NNReal/Defs.lean: `scoped notation "ℝ≥0" => NNReal`
            ("ℝ≥0", "NNReal"),
        ],
    },
    NamespaceNames {
        // Opening `ComplexConjugate` adds no name readings, only the `conj` notation.
        namespace: "ComplexConjugate",
        sources: &["Mathlib/Data/Complex/Basic.lean (docstring of the `StarRing ℂ` instance)"],
        complete: false, names: &[], protected: &[],
        scoped_notations: &[("conj", "starRingEnd")],
    },
    NamespaceNames {
        // Opening `goldenRatio` adds only the notations `φ` and `ψ`.
        namespace: "goldenRatio",
        sources: &["Mathlib/Data/Real/GoldenRatio.lean (older version: root `goldenRatio`)"],
        complete: true, names: &[], protected: &[],
        scoped_notations: &[("φ", "goldenRatio"), ("ψ", "goldenConj")],
    },
    NamespaceNames {
        namespace: "Set", sources: &[
            "Mathlib/Data/Set/Defs.lean", "Mathlib/Data/Set/Operations.lean",
            "Mathlib/Order/SetNotation.lean", "Mathlib/Order/Interval/Set/Defs.lean",
            "Mathlib/Data/Set/Finite/Defs.lean",
            "Mathlib/Data/Set/Card.lean (`encard`, `ncard`, via indexed excerpts)",
            "Mathlib/Data/Set/Pairwise/Basic.lean (`def PairwiseDisjoint`, via indexed excerpts)",
            "Mathlib/Data/Set/Countable.lean, Data/Set/Subsingleton.lean (`protected def Countable`, `Subsingleton`, `Nontrivial`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Indicator.lean (`noncomputable def mulIndicator` with its `to_additive` copy `indicator`, via indexed excerpts)",
            "Mathlib/Order/Interval/Set/UnorderedInterval.lean (`def uIcc`, `scoped[Interval] notation`, via indexed excerpts)",
            "`def inclusion` (Data/Set/Inclusion.lean; older Data/Set/Basic.lean) and `protected def Pairwise` (Data/Set/Defs.lean or Logic/Pairwise.lean), via indexed excerpts",
        ],
        complete: false, names: &[
            // Data/Set/Operations.lean: BijOn, EqOn, InjOn, InvOn, LeftInvOn, MapsTo, SurjOn,
            // diagonal, graphOn, image2, imageFactorization, kernImage, offDiag, pi, preimage,
            // prod, range, rangeFactorization, rangeSplitting, restrictPreimage, seq;
            // Order/Interval/Set/Defs.lean: Icc, Ico, Iic, Iio, Ioc, Ioo, OrdConnected;
            // Order/Interval/Set/Defs.lean (generated from `Iic` by `to_dual`): Ici;
            // Order/Interval/Set/Defs.lean (generated from `Iio` by `to_dual`): Ioi;
            // Data/Set/Operations.lean (abbrev): RightInvOn; Algebra/Group/Center.lean (`#align
            // set.center`, via indexed excerpts): center; Algebra/Group/Centralizer.lean (`#align
            // set.centralizer`, via indexed excerpts): centralizer; Order/SetNotation.lean: iInter,
            // iUnion, sInter, sUnion; Data/Set/Defs.lean: image, powerset, univ;
            // Data/Fintype/Basic.lean (`#align set.to_finset`): toFinset;
            // Data/Set/Card.lean (noncomputable def): encard, ncard; Data/Set/Pairwise/Basic.lean:
            // PairwiseDisjoint;
            // Data/Set/Inclusion.lean (older Data/Set/Basic.lean, via indexed excerpts): inclusion;
            // Algebra/Group/Indicator.lean (noncomputable def, via indexed excerpts): mulIndicator;
            // Algebra/Group/Indicator.lean (its `to_additive` copy, `#align set.indicator
            // Set.indicator`): indicator; Order/Interval/Set/UnorderedInterval.lean (via indexed
            // excerpts; `[[a, b]]` is scoped in `Interval`, not here): uIcc
            "BijOn", "EqOn", "Icc", "Ici", "Ico", "Iic", "Iio", "InjOn", "InvOn", "Ioc", "Ioi",
            "Ioo", "LeftInvOn", "MapsTo", "OrdConnected", "PairwiseDisjoint", "RightInvOn",
            "SurjOn", "center", "centralizer", "diagonal", "encard", "graphOn", "iInter", "iUnion",
            "image", "image2", "imageFactorization", "inclusion", "indicator", "kernImage",
            "mulIndicator", "ncard", "offDiag", "pi", "powerset", "preimage", "prod", "range",
            "rangeFactorization", "rangeSplitting", "restrictPreimage", "sInter", "sUnion", "seq",
            "toFinset", "uIcc", "univ",
        ],
        protected: &[
            // Data/Set/Defs.lean
            "Mem", "Nonempty", "Subset", "compl", "diff", "insert", "inter", "singleton", "union",
            // Data/Set/Finite/Defs.lean
            "Finite", "Infinite",
            // Data/Set/Countable.lean, Data/Set/Subsingleton.lean
            "Countable", "Nontrivial", "Subsingleton",
            // `protected def Pairwise (s : Set α) (r : α → α → Prop)`
            "Pairwise",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Function",
        sources: &[
            "Mathlib/Logic/Function/Defs.lean (current version and an older version that still held `Injective`)",
            "Mathlib/Algebra/Periodic.lean (`def Periodic`, `def Antiperiodic`, via indexed excerpts)",
            "Mathlib/Logic/Function/Basic.lean (`def Involutive`, `def Injective2`, `def update`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Support.lean (`def mulSupport` with its `to_additive` copy `support`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Logic/Function/Defs.lean: Bijective, IsFixedPt, bicompl, bicompr, dcomp;
            // Logic/Function/Defs.lean (older version; now in Lean core): HasLeftInverse,
            // HasRightInverse, Injective, LeftInverse, RightInverse, Surjective;
            // Logic/Function/Defs.lean (abbrev): onFun, swap;
            // Algebra/Periodic.lean (via indexed excerpts): Antiperiodic, Periodic;
            // Logic/Function/Basic.lean (via indexed excerpts): Injective2, Involutive, update;
            // Algebra/Group/Support.lean (`def mulSupport`, additive copy `support`, via indexed
            // excerpts): mulSupport, support
            "Antiperiodic", "Bijective", "HasLeftInverse", "HasRightInverse", "Injective",
            "Injective2", "Involutive", "IsFixedPt", "LeftInverse", "Periodic", "RightInverse",
            "Surjective", "bicompl", "bicompr", "dcomp", "mulSupport", "onFun", "support", "swap",
            "update",
        ],
        protected: &[
            // Logic/Function/Defs.lean
            "diag", "prod",
        ],
        scoped_notations: &[
            // Logic/Function/Defs.lean: `scoped infixl:2 " on " => onFun`
            ("on", "Function.onFun"),
        ],
    },
    NamespaceNames {
        namespace: "Finset", sources: &[
            "Mathlib/Data/Finset/Defs.lean", "Mathlib/Data/Finset/Range.lean",
            "Mathlib/Data/Finset/Filter.lean",
            "Mathlib/Data/Finset/Card.lean (the `card` definition and `#` notation, via indexed excerpts)",
            "Mathlib/Data/Fintype/Defs.lean",
            "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (first 16000 characters)",
            "Mathlib/Data/Finset/Powerset.lean (first 16000 of 16356 characters)",
            "Mathlib/Data/Finset/Image/Defs.lean", "Mathlib/Data/Finset/Prod.lean",
            "Mathlib/Order/Interval/Finset/Defs.lean (first 16000 characters)",
            "Mathlib/Data/Finset/Erase.lean", "Mathlib/Data/Finset/Union.lean",
            "Mathlib/Data/Finset/Attach.lean", "Mathlib/Data/Finset/Sigma.lean (a ported version)",
            "Mathlib/Data/Finset/Max.lean (first 16000 characters)",
            "Mathlib/Data/Finset/Lattice/Fold.lean (first 16000 characters; `sup'` via indexed excerpts)",
            "Mathlib/Data/Finset/Antidiagonal.lean (an older version: `def antidiagonal`)",
            "Mathlib/Algebra/Order/Antidiag/Prod.lean (`class HasAntidiagonal` and `export HasAntidiagonal (antidiagonal mem_antidiagonal)`, via indexed excerpts)",
            "Mathlib/Data/Finset/Basic.lean, Insert.lean (`Finset.Nonempty`, `cons`, `disjUnion`, the `Insert` instance, via indexed excerpts)",
            "Mathlib/Order/Interval/Finset/Defs.lean (`uIcc`, via indexed excerpts)",
            "Mathlib/Data/Finset/Sort.lean (`def sort`, via indexed excerpts)",
            "Mathlib/Data/Finset/Fold.lean (`def fold`), Data/Finset/Pi.lean (`def pi`), `noncomputable def toList`, `protected def subtype` (Data/Finset/Basic.lean), via indexed excerpts",
        ],
        complete: false, names: &[
            // Algebra/Order/Antidiag/Prod.lean (class; its field `antidiagonal` is exported into
            // `Finset`; older Data/Finset/Antidiagonal.lean: `def antidiagonal`): HasAntidiagonal,
            // antidiagonal; Order/Interval/Finset/Defs.lean: Icc, Ici, Ico, Iic, Iio, Ioc, Ioi,
            // Ioo, uIcc; Data/Finset/Attach.lean: attach; Data/Finset/Card.lean: card;
            // Data/Finset/Defs.lean: coeEmb; Data/Finset/Insert.lean: cons;
            // Data/Finset/Powerset.lean: decidableExistsOfDecidableSSubsets,
            // decidableExistsOfDecidableSSubsets', decidableForallOfDecidableSSubsets,
            // decidableForallOfDecidableSSubsets', powerset, powersetCard, ssubsets;
            // Data/Finset/Prod.lean: diag, offDiag; Data/Finset/Basic.lean: disjUnion;
            // Data/Finset/Union.lean: disjiUnion; Data/Finset/Erase.lean: erase;
            // Data/Finset/Filter.lean: filter; Data/Finset/Image/Defs.lean: filterMap, image, map,
            // mapEmbedding; Data/Finset/Lattice/Fold.lean: inf, sup, sup'; Data/Finset/Max.lean
            // (`inf'` is named by `min'`'s definition there): inf', max', min';
            // Data/Finset/Defs.lean (constructor): mk; Data/Finset/Defs.lean (structure field):
            // nodup, val; Data/Finset/Range.lean: range; Data/Finset/Sigma.lean: sigmaLift;
            // Data/Finset/Defs.lean (deprecated abbrev): toSet; Data/Fintype/Defs.lean: univ.
            // `insert a s` is the `Insert` instance (root `insert`), not a `Finset` declaration.
            // Data/Finset/Sort.lean (via indexed excerpts): sort;
            // Data/Finset/Fold.lean: fold; Data/Finset/Pi.lean: pi; a Data/Finset file's
            // `section ToList` (noncomputable def): toList (all via indexed excerpts)
            "HasAntidiagonal", "Icc", "Ici", "Ico", "Iic", "Iio", "Ioc", "Ioi", "Ioo",
            "antidiagonal", "attach", "card", "coeEmb", "cons",
            "decidableExistsOfDecidableSSubsets", "decidableExistsOfDecidableSSubsets'",
            "decidableForallOfDecidableSSubsets", "decidableForallOfDecidableSSubsets'", "diag",
            "disjUnion", "disjiUnion", "erase", "filter", "filterMap", "fold", "image", "inf",
            "inf'", "map", "mapEmbedding", "max'", "min'", "mk", "nodup", "offDiag", "pi",
            "powerset", "powersetCard", "range", "sigmaLift", "sort", "ssubsets", "sup", "sup'",
            "toList", "toSet", "uIcc", "univ", "val",
        ],
        protected: &[
            // Algebra/BigOperators/Group/Finset/Defs.lean (`protected def prod`, additive copy `sum`)
            "prod", "sum",
            // Data/Finset/Defs.lean (`protected def Nonempty`); Data/Finset/Prod.lean (`protected
            // def product`); Data/Finset/Union.lean (`protected def biUnion`);
            // Data/Finset/Sigma.lean (`protected def sigma`); Data/Finset/Max.lean (`protected def
            // max`, `protected def min`)
            "Nonempty", "product", "biUnion", "sigma", "max", "min",
            // Data/Finset/Basic.lean (`protected def subtype`)
            "subtype",
        ],
        scoped_notations: &[
            // Data/Finset/Card.lean: `scoped prefix:arg "#" => Finset.card`
            ("#", "Finset.card"),
        ],
    },
    NamespaceNames {
        namespace: "Fintype", sources: &[
            "Mathlib/Data/Fintype/Defs.lean",
            "Mathlib/Data/Fintype/Card.lean (the `card` definition, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Data/Fintype/Card.lean: card; Data/Fintype/Defs.lean (class field): complete, elems;
            // Data/Fintype/Defs.lean: ofFinset
            "card", "complete", "elems", "ofFinset",
        ],
        protected: &[
            // Data/Fintype/Defs.lean
            "subtype",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        // `∑ x ∈ s, f x` / `∏ x ∈ s, f x` are declared with plain `syntax` inside
        // `namespace BigOperators`, so they are global: `open BigOperators` activates nothing and
        // its names are macro helpers that no statement writes.
        namespace: "BigOperators",
        sources: &["Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (first 16000 characters)"],
        complete: false, names: &[
            // macro helper: bigOpBindersPattern, bigOpBindersProd, processBigOpBinder,
            // processBigOpBinders; delaborator: delabFinsetProd, delabFinsetSum
            "bigOpBindersPattern", "bigOpBindersProd", "delabFinsetProd", "delabFinsetSum",
            "processBigOpBinder", "processBigOpBinders",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Polynomial", sources: &[
            "Mathlib/Algebra/Polynomial/Basic.lean (first 32000 characters)",
            "Mathlib/Algebra/Polynomial/Degree/Defs.lean (first 16000 characters)",
            "Mathlib/Algebra/Polynomial/Eval/Defs.lean (the `eval` and `IsRoot` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Roots.lean (the `roots`, `aroots`, `rootSet`, `nthRoots` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Div.lean (`divModByMonicAux`, `divByMonic`, `modByMonic`, `rootMultiplicity`, via indexed excerpts)",
            "Mathlib/FieldTheory/Separable.lean (the `Separable` definition, via indexed excerpts)",
            "Mathlib/RingTheory/Polynomial/Cyclotomic/Basic.lean (the `cyclotomic` definition, via indexed excerpts)",
            "Mathlib/RingTheory/Polynomial/Content.lean (the `IsPrimitive` and `content` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Mirror.lean, Reverse.lean, Expand.lean, EraseLead.lean (`mirror`, `reverse`, `expand`, `eraseLead`, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Degree/TrailingDegree.lean (`trailingDegree`, `natTrailingDegree`, `trailingCoeff`, `TrailingMonic`, via indexed excerpts)",
            "Mathlib/FieldTheory/PolynomialGaloisGroup.lean (`def Gal` inside `namespace Polynomial`, via indexed excerpts)",
            "Mathlib/FieldTheory/SplittingField/Construction.lean and IsSplittingField.lean (`SplittingFieldAux`, `SplittingField`, `class IsSplittingField`, via indexed excerpts)",
            "Mathlib/RingTheory/Polynomial/Eisenstein/Defs.lean (`structure IsEisensteinAt`, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Roots.lean (`def nthRootsFinset`), RingTheory/Polynomial/Content.lean (`def primPart`), Algebra/Polynomial/Reverse.lean (`def reflect`), via indexed excerpts",
        ],
        complete: false, names: &[
            // Algebra/Polynomial/Basic.lean: C, X, coeff, monomial, support, toFinsuppIso,
            // toFinsuppIsoLinear; Algebra/Polynomial/Eval/Defs.lean: IsRoot, eval;
            // Algebra/Polynomial/Degree/Defs.lean: Monic, degree, leadingCoeff, natDegree,
            // nextCoeff; FieldTheory/Splits (older extract, `#align polynomial.splits`): Splits;
            // Algebra/Polynomial/AlgebraMap.lean (`#align polynomial.aeval`): aeval;
            // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`): comp,
            // compRingHom, evalRingHom, eval₂AddMonoidHom, eval₂RingHom, eval₂RingHom', leval, map,
            // mapEquiv, mapRingHom, piEquiv; Algebra/Polynomial/Derivative.lean (`#align
            // polynomial.derivative`): derivative; Algebra/Polynomial/Eval/Defs.lean (used by
            // `eval`'s definition): eval₂; Algebra/Polynomial/Basic.lean (constructor): ofFinsupp;
            // FieldTheory/Splits (older extract, `#align polynomial.root_of_splits'`):
            // rootOfSplits'; Algebra/Polynomial/Roots.lean: roots, rootSet, nthRoots;
            // Algebra/Polynomial/Roots.lean (abbrev): aroots; Algebra/Polynomial/Basic.lean (not
            // protected): sum; Algebra/Polynomial/Basic.lean (structure field): toFinsupp;
            // Algebra/Polynomial/Div.lean: divByMonic, divModByMonicAux, modByMonic,
            // rootMultiplicity; FieldTheory/Separable.lean: Separable;
            // RingTheory/Polynomial/Cyclotomic/Basic.lean: cyclotomic;
            // RingTheory/Polynomial/Content.lean: IsPrimitive, content;
            // Algebra/Polynomial/Mirror.lean: mirror; Algebra/Polynomial/Reverse.lean: reverse;
            // Algebra/Polynomial/Expand.lean: expand; Algebra/Polynomial/EraseLead.lean: eraseLead;
            // Algebra/Polynomial/Degree/TrailingDegree.lean: TrailingMonic, natTrailingDegree,
            // trailingCoeff, trailingDegree; FieldTheory/PolynomialGaloisGroup.lean: Gal;
            // FieldTheory/SplittingField/Construction.lean: SplittingField, SplittingFieldAux;
            // FieldTheory/SplittingField/IsSplittingField.lean (class): IsSplittingField;
            // RingTheory/Polynomial/Eisenstein/Defs.lean (structure): IsEisensteinAt;
            // Algebra/Polynomial/Roots.lean (via indexed excerpts): nthRootsFinset;
            // RingTheory/Polynomial/Content.lean (noncomputable def, via indexed excerpts):
            // primPart; Algebra/Polynomial/Reverse.lean (noncomputable def, via indexed excerpts):
            // reflect
            "C", "Gal", "IsEisensteinAt", "IsPrimitive", "IsRoot", "IsSplittingField", "Monic",
            "Separable", "Splits", "SplittingField", "SplittingFieldAux", "TrailingMonic", "X",
            "aeval", "aroots", "coeff", "comp", "compRingHom", "content", "cyclotomic", "degree",
            "derivative", "divByMonic", "divModByMonicAux", "eraseLead", "eval", "evalRingHom",
            "eval₂", "eval₂AddMonoidHom", "eval₂RingHom", "eval₂RingHom'", "expand", "leadingCoeff",
            "leval", "map", "mapEquiv", "mapRingHom", "mirror", "modByMonic", "monomial",
            "natDegree", "natTrailingDegree", "nextCoeff", "nthRoots", "nthRootsFinset",
            "ofFinsupp", "piEquiv", "primPart", "reflect", "reverse", "rootMultiplicity",
            "rootOfSplits'", "rootSet", "roots", "sum", "support", "toFinsupp", "toFinsuppIso",
            "toFinsuppIsoLinear", "trailingCoeff", "trailingDegree",
        ],
        protected: &[], scoped_notations: &[
            // Algebra/Polynomial/Basic.lean: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R`
            ("R[X]", "Polynomial"),
        ],
    },
    NamespaceNames {
        // Root-level declarations statements commonly write (not an exhaustive list of the root
        // namespace). Under `open Nat`, `Prime`, `gcd` and `lcm` have two readings each (the root
        // one and `Nat.Prime`/`Nat.gcd`/`Nat.lcm`), so they are ambiguous.
        namespace: "", sources: &[
            "Mathlib/Data/Real/Basic.lean (`Real`)", "Mathlib/Data/Complex/Basic.lean (`Complex`)",
            "Mathlib/Data/Real/Irrational.lean (`Irrational`)",
            "Mathlib/Topology/UniformSpace/Defs.lean (`class UniformSpace`, via indexed excerpts)",
            "Mathlib/Topology/Separation/SeparatedNhds.lean (`def SeparatedNhds`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Idempotent.lean (`def IsIdempotentElem`, via indexed excerpts)",
            "Mathlib/Order/Atoms.lean (`def IsAtom`, `def IsCoatom`, via indexed excerpts)",
            "Mathlib/Order/Max.lean (`def IsBot`, `def IsTop`, via indexed excerpts)",
            "Mathlib/Topology/Connected/PathConnected.lean (`def JoinedIn`, via indexed excerpts)",
            "Mathlib/Order/Synonym.lean (`def Lex`, via indexed excerpts)",
            "Mathlib/Data/Real/GoldenRatio.lean (older version: `goldenRatio`, `goldenConj`)",
            "Mathlib/Data/NNReal/Defs.lean (`NNReal`)",
            "Mathlib/Data/Set/Defs.lean (`Set`, `setOf`)",
            "Mathlib/Order/SetNotation.lean (`iSup`, `iInf`, `SupSet`, `InfSet`, exported `sSup`, `sInf`)",
            "Mathlib/Data/Finset/Defs.lean (`Finset`)",
            "Mathlib/Data/Fintype/Defs.lean (`Fintype`)",
            "Mathlib/Algebra/Order/Floor/Defs.lean (`FloorSemiring`, `FloorRing`)",
            "Mathlib/Algebra/Group/Even.lean (`IsSquare`, `Even`)",
            "Mathlib/Algebra/Ring/Parity.lean (`Odd`, via indexed excerpts)",
            "Mathlib/Algebra/Prime/Defs.lean (`Prime`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Units/Defs.lean (`IsUnit`, via indexed excerpts)",
            "Mathlib/Algebra/GCDMonoid/Basic.lean (`export GCDMonoid (gcd lcm ...)`, via indexed excerpts)",
            "Mathlib/Algebra/Order/Group/Unbundled/Abs.lean (`mabs`, `abs` and the `|a|` macro, via indexed excerpts)",
            "Mathlib/Analysis/Calculus/Deriv/Basic.lean (`deriv`, `derivWithin`, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Basic.lean (`Polynomial`)",
            "Mathlib/Data/ZMod/Defs.lean (`ZMod`, via indexed excerpts)",
            "Mathlib/Topology/Defs/Filter.lean (`nhds`, `nhdsWithin`, via indexed excerpts)",
            "Mathlib/Topology/UniformSpace/Cauchy.lean (`CauchySeq`, via indexed excerpts)",
            "Mathlib/Topology/UniformSpace/Defs.lean (`UniformContinuous`, via indexed excerpts)",
            "Mathlib/Order/Monotone/Defs.lean (`Monotone`, `Antitone`, `MonotoneOn`, \
             `AntitoneOn`, `StrictMono`, `StrictAnti`, `StrictMonoOn`, `StrictAntiOn`)",
            "Mathlib/Order/Bounds/Defs.lean (`upperBounds`, `lowerBounds`, `BddAbove`, \
             `BddBelow`, `IsLeast`, `IsGreatest`, `IsLUB`, `IsGLB`)",
            "Mathlib/Algebra/Group/Defs.lean (`Monoid`, `AddMonoid`, `CommMonoid`, \
             `AddCommMonoid`, `Group`, `AddGroup`, `CommGroup`, `AddCommGroup`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Ring/Defs.lean (`Semiring`, `CommSemiring`, `Ring`, `CommRing`, \
             `IsDomain`, via indexed excerpts)",
            "Mathlib/Algebra/Field/Defs.lean (`DivisionSemiring`, `DivisionRing`, `Semifield`, \
             `Field`)",
            "Mathlib/Algebra/Module/Defs.lean (`Module`, via indexed excerpts)",
            "Mathlib/Data/Finite/Defs.lean (`Finite`, `Infinite`)",
            "Mathlib/Data/Countable/Defs.lean (`Countable`, `Uncountable`)",
            "Mathlib/Topology/Algebra/InfiniteSum/Defs.lean (`HasProd`, `HasSum`, `Multipliable`, \
             `Summable`, `tprod`, `tsum`)",
            "Mathlib/Logic/Nontrivial/Defs.lean (`Nontrivial`)",
            "Mathlib/RingTheory/Nilpotent/Defs.lean (`IsNilpotent`)",
            "Mathlib/Algebra/CharP/Defs.lean (`CharP`, `ringChar`)",
            "Mathlib/Topology/UnitInterval.lean (`unitInterval`)",
            "Mathlib/Topology/MetricSpace/Defs.lean (`MetricSpace`, via indexed excerpts)",
            "src/Init/Prelude.lean (`Fin`, `List`, `Option`, `Prod`, `Nonempty`, `id`, `Max`, \
             `Min`, `max`, `min`, `Subtype`, `Decidable`, `DecidableEq`, `DecidableRel`, \
             `Inhabited`, `default`, `Nat`, via indexed excerpts)",
            "src/Init/Data/Int/Basic.lean (`Int`, via indexed excerpts)",
            "Mathlib/Topology/Defs/Filter.lean (`CompactSpace`, `NoncompactSpace`, \
             `WeaklyLocallyCompactSpace`, `LocallyCompactSpace`, `LocallyCompactPair`)",
            "Mathlib/Topology/Separation.lean (`T0Space`, `T1Space`, `T2Space`, `RegularSpace`, \
             `T3Space`, `NormalSpace`, `T4Space`, via indexed excerpts)",
            "Mathlib/Topology/Connected/Basic.lean (`IsPreconnected`, `IsConnected`, \
             `connectedComponent`, `PreconnectedSpace`, `ConnectedSpace`, via indexed excerpts)",
            "Mathlib/Topology/Connected/PathConnected.lean (`IsPathConnected`, \
             `PathConnectedSpace`, via indexed excerpts)",
            "Mathlib/Topology/Order/Basic.lean (`OrderTopology`)",
            "Mathlib/Topology/UniformSpace/Cauchy.lean (`CompleteSpace`, via indexed excerpts)",
            "Mathlib/Analysis/Calculus/FDeriv/Basic.lean (`HasFDerivAtFilter`, \
             `HasFDerivWithinAt`, `HasFDerivAt`, `HasStrictFDerivAt`, `DifferentiableWithinAt`, \
             `DifferentiableAt`, `fderivWithin`, `fderiv`, `DifferentiableOn`, `Differentiable`, \
             via indexed excerpts)",
            "Mathlib/Analysis/Calculus/Deriv/Basic.lean (`HasDerivWithinAt`, `HasDerivAt`, \
             `HasStrictDerivAt`, via indexed excerpts)",
            "Mathlib/Analysis/Calculus/IteratedDeriv/Defs.lean (`iteratedDeriv`, via indexed \
             excerpts)",
            "Mathlib/Analysis/Calculus/ContDiff/Defs.lean (`ContDiffWithinAt`, `ContDiffOn`, \
             `ContDiffAt`, `ContDiff`, `iteratedFDerivWithin`, `iteratedFDeriv`, \
             `HasFTaylorSeriesUpToOn`, `HasFTaylorSeriesUpTo`, via indexed excerpts)",
            "Mathlib/Topology/UniformSpace/Basic.lean (`UniformContinuousOn`, via indexed \
             excerpts)",
            "Mathlib/Topology/UniformSpace/UniformConvergence.lean (`TendstoUniformly`, \
             `TendstoUniformlyOn`, `UniformCauchySeqOnFilter`, via indexed excerpts)",
            "Mathlib/Topology/MetricSpace/Isometry.lean (`Isometry`, via indexed excerpts)",
            "Mathlib/Topology/EMetricSpace/Lipschitz.lean (`LipschitzWith`, `LipschitzOnWith`, \
             via indexed excerpts)",
            "Mathlib/Order/Disjoint.lean (`Disjoint`, `Codisjoint`, via indexed excerpts)",
            "Mathlib/Algebra/Squarefree/Basic.lean (`Squarefree`, via indexed excerpts)",
            "Mathlib/GroupTheory/SpecificGroups/Cyclic.lean (`IsCyclic`, `IsAddCyclic`, via \
             indexed excerpts)",
            "Mathlib/GroupTheory/Subgroup/Simple.lean (`IsSimpleGroup`, `IsSimpleAddGroup`, via \
             indexed excerpts)",
            "Mathlib/GroupTheory/Solvable.lean (`IsSolvable`, via indexed excerpts)",
            "Mathlib/GroupTheory/PGroup.lean (`IsPGroup`, via indexed excerpts)",
            "Mathlib/Algebra/Field/Subfield.lean (`Subfield`, via indexed excerpts)",
            "Mathlib/RingTheory/RootsOfUnity/PrimitiveRoots.lean (`IsPrimitiveRoot`, via indexed \
             excerpts)",
            "Mathlib/RingTheory/Algebraic.lean (`IsAlgebraic`, `Transcendental`, via indexed \
             excerpts)",
            "Mathlib/Data/Matrix/Basic.lean (`Matrix`, via indexed excerpts)",
            "Mathlib/Analysis/InnerProductSpace/PiL2.lean (`EuclideanSpace`, via indexed excerpts)",
            "Mathlib/Logic/Basic.lean (`Fact`, via indexed excerpts)",
            "Mathlib/Init/Order/Defs.lean (`Preorder`, `PartialOrder`, `LinearOrder`, via indexed \
             excerpts)",
            "Mathlib/Algebra/GroupWithZero/Defs.lean (`NoZeroDivisors`, via indexed excerpts)",
            "Mathlib/Algebra/EuclideanDomain/Defs.lean (`EuclideanDomain`, via indexed excerpts)",
            "Mathlib/RingTheory/UniqueFactorizationDomain.lean (`UniqueFactorizationMonoid`, via \
             indexed excerpts)",
            "Mathlib/Analysis/Normed/Group/Basic.lean (`NormedAddCommGroup`, via indexed excerpts)",
            "Mathlib/Analysis/NormedSpace/Basic.lean (`NormedSpace`, via indexed excerpts)",
            "Mathlib/Analysis/Normed/Field/Basic.lean (`NormedField`, via indexed excerpts)",
            "Mathlib/Analysis/InnerProductSpace/Defs.lean (`Inner`, `inner`, `InnerProductSpace`, \
             via indexed excerpts)",
            "Mathlib/Analysis/RCLike/Basic.lean (`RCLike`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/FiniteDimensional/Defs.lean (`FiniteDimensional`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Field/Basic.lean (`IsField`, via indexed excerpts)",
            "Mathlib/Init/Algebra/Classes.lean (`IsLinearOrder`, via indexed excerpts)",
            "Mathlib/Logic/Pairwise.lean (`Pairwise`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Conj.lean (`IsConj`, via indexed excerpts)",
            "Mathlib/Data/Multiset/Basic.lean (`Multiset`, via indexed excerpts)",
            "src/Init/Core.lean (`Sum`, `Setoid`, `Quotient`, via indexed excerpts)",
            "src/Init/WF.lean (`WellFounded`, via indexed excerpts)",
            "Mathlib/Order/Lattice.lean (`Lattice`, via indexed excerpts)",
            "Mathlib/Order/CompleteLattice.lean (`CompleteLattice`, via indexed excerpts)",
            "Mathlib/Order/BoundedOrder.lean (`OrderBot`, `OrderTop`, `BoundedOrder`, via indexed \
             excerpts)",
            "Mathlib/Analysis/Convex/Function.lean (`ConvexOn`, `ConcaveOn`, `StrictConvexOn`, \
             `StrictConcaveOn`, via indexed excerpts)",
            "Mathlib/Analysis/Convex/Basic.lean (`Convex`, via indexed excerpts)",
            "Mathlib/MeasureTheory/MeasurableSpace/Defs.lean (`MeasurableSpace`, `MeasurableSet`, \
             `Measurable`, via indexed excerpts)",
            "Mathlib/MeasureTheory/Integral/IntervalIntegral.lean (`IntervalIntegrable`, via \
             indexed excerpts)",
            "Mathlib/Algebra/Associated.lean (`Associated`, via indexed excerpts)",
            "Mathlib/RingTheory/Coprime/Basic.lean (`IsCoprime`, via indexed excerpts)",
            "Mathlib/Algebra/Divisibility/Units.lean (`IsRelPrime`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Commute/Defs.lean (`Commute`, `AddCommute`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Group/Semiconj/Defs.lean (`SemiconjBy`, `AddSemiconjBy`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Group/Submonoid/Defs.lean (`Submonoid`, `AddSubmonoid`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Algebra/Subalgebra/Basic.lean (`Subalgebra`, via indexed excerpts)",
            "Mathlib/FieldTheory/IntermediateField.lean (`IntermediateField`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Module/Submodule/Basic.lean (`Submodule`, via indexed excerpts)",
            "Mathlib/Algebra/Module/LinearMap/Defs.lean (`LinearMap`, via indexed excerpts)",
            "Mathlib/Algebra/Module/Equiv.lean (`LinearEquiv`, via indexed excerpts)",
            "Mathlib/Algebra/Algebra/Hom.lean (`AlgHom`, via indexed excerpts)",
            "Mathlib/Algebra/Ring/Hom/Defs.lean (`RingHom`, via indexed excerpts)",
            "Mathlib/Algebra/Group/Hom/Defs.lean (`MonoidHom`, `AddMonoidHom`, via indexed \
             excerpts)",
            "Mathlib/Algebra/Group/Equiv/Basic.lean (`MulEquiv`, `AddEquiv`, via indexed excerpts)",
            "Mathlib/Algebra/Ring/Equiv.lean (`RingEquiv`, via indexed excerpts)",
            "Mathlib/Algebra/Algebra/Defs.lean (`Algebra`, `algebraMap`, via indexed excerpts)",
            "Mathlib/RingTheory/IntegralClosure/IsIntegral/Defs.lean (`IsIntegral`, via indexed \
             excerpts)",
            "Mathlib/FieldTheory/Minpoly/Basic.lean (`minpoly`, via indexed excerpts)",
            "Mathlib/FieldTheory/Finite/GaloisField.lean (`GaloisField`, via indexed excerpts)",
            "Mathlib/RingTheory/PowerSeries/Basic.lean (`PowerSeries`, via indexed excerpts)",
            "Mathlib/Data/ENNReal/Basic.lean (`ENNReal`, via indexed excerpts)",
            "Mathlib/Data/Real/EReal.lean (`EReal`, via indexed excerpts)",
            "src/Init/Data/Rat/Basic.lean (`Rat`, via indexed excerpts)",
            "Mathlib/Data/DFinsupp/Basic.lean (`DFinsupp`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/LinearIndependent.lean (`LinearIndependent`, via indexed \
             excerpts)",
            "Mathlib/Logic/IsEmpty.lean (`IsEmpty`, via indexed excerpts)",
            "Mathlib/Logic/Unique.lean (`Unique`, via indexed excerpts)",
            "Mathlib/Order/Atoms.lean (`IsSimpleOrder`, via indexed excerpts)",
            "Mathlib/Algebra/Order/Archimedean.lean (`Archimedean`, via indexed excerpts)",
            "Mathlib/Algebra/Order/Ring/Defs.lean (`IsStrictOrderedRing`, `OrderedRing`, \
             `StrictOrderedRing`, via indexed excerpts)",
            "Mathlib/Algebra/Order/Field/Defs.lean (`LinearOrderedSemifield`, \
             `LinearOrderedField`, via indexed excerpts)",
            "Mathlib/Order/Basic.lean (`DenselyOrdered`, via indexed excerpts)",
            "Mathlib/Order/Max.lean (`NoMinOrder`, `NoMaxOrder`, `NoBotOrder`, `NoTopOrder`, via \
             indexed excerpts)",
        ],
        complete: false, names: &[
            // Topology/Defs/Filter.lean (declaration extract, `#align`): AccPt, ClusterPt,
            // ContinuousAt, ContinuousOn, ContinuousWithinAt, Inseparable, IsCompact, MapClusterPt,
            // SeparationQuotient, Specializes, inseparableSetoid, lim, limUnder, nhdsSet,
            // specializationPreorder; older GroupTheory/Subgroup/Basic.lean extract (structure):
            // AddSubgroup, Subgroup; Topology/Defs/Basic.lean (class): BaireSpace, IsClosed,
            // TopologicalSpace; SetTheory/Cardinal/Basic.lean (def): Cardinal;
            // Data/Complex/Basic.lean: Complex; Topology/Defs/Basic.lean (structure): Continuous;
            // Topology/Defs/Basic.lean: Dense, DenseRange, IsClopen, IsClosedMap, IsOpen,
            // IsOpenMap, frontier, interior; Topology/MetricSpace/Pseudo/Defs.lean (class): Dist,
            // NNDist, PseudoMetricSpace; Logic/Equiv/Defs.lean (structure; `≃` is its global
            // infix): Equiv; Algebra/Group/Even.lean (additive copy of `IsSquare`): Even;
            // Order/Filter/Defs.lean (structure): Filter; Data/Finset/Defs.lean: Finset;
            // Data/Finsupp/Defs.lean (structure; `→₀` is its global infix): Finsupp;
            // Data/Fintype/Defs.lean: Fintype; Algebra/Order/Floor/Defs.lean: FloorRing,
            // FloorSemiring; NumberTheory/Zsqrtd/GaussianInt.lean (abbrev for `Zsqrtd (-1)`):
            // GaussianInt; RingTheory/Ideal/Defs.lean (abbrev): Ideal; Order/SetNotation.lean:
            // InfSet, SupSet, iInf, iSup; Data/Real/Irrational.lean: Irrational; Algebra/Associated
            // (structure, `#align irreducible`): Irreducible; Algebra/Group/Units/Defs.lean
            // (additive copy of `IsUnit`): IsAddUnit; GroupTheory/OrderOfElement.lean (`#align
            // is_of_fin_order`): IsOfFinOrder; RingTheory/Ideal/Span.lean (class):
            // IsPrincipalIdealRing; Algebra/Group/Even.lean: IsSquare;
            // Algebra/Group/Units/Defs.lean: IsUnit; RingTheory/MvPolynomial/Basic.lean (def):
            // MvPolynomial; Analysis/Normed/Group/Basic.lean (class): NNNorm, Norm;
            // Data/NNReal/Defs.lean: NNReal; older GroupTheory/Subgroup/Basic.lean extract (`def
            // _root_.NormalizerCondition`): NormalizerCondition; Algebra/Ring/Parity.lean: Odd;
            // SetTheory/Ordinal/Basic.lean (older extract, `#align ordinal`): Ordinal;
            // Algebra/Polynomial/Basic.lean: Polynomial; Algebra/Prime/Defs.lean: Prime;
            // Data/Real/Basic.lean: Real; Data/Set/Defs.lean: Set, setOf;
            // RingTheory/Subring/Basic.lean (structure): Subring; GroupTheory/Sylow.lean
            // (structure, `#align sylow`): Sylow; SetTheory/Ordinal/Basic.lean (older extract,
            // structure): WellOrder; Data/ZMod/Defs.lean: ZMod; NumberTheory/Zsqrtd/Basic.lean
            // (structure): Zsqrtd; Algebra/Order/Group/Unbundled/Abs.lean (additive copy of
            // `mabs`): abs; GroupTheory/OrderOfElement.lean (additive copy of `orderOf`):
            // addOrderOf; Topology/Defs/Basic.lean (topological closure): closure;
            // Analysis/Calculus/Deriv/Basic.lean: deriv, derivWithin;
            // Topology/MetricSpace/Pseudo/Defs.lean (`export Dist (dist)`): dist;
            // Algebra/GCDMonoid/Basic.lean (`export GCDMonoid`): gcd, lcm;
            // Data/Real/GoldenRatio.lean (older version): goldenConj, goldenRatio;
            // Algebra/Order/Group/Unbundled/Abs.lean: mabs; Topology/Defs/Filter.lean
            // (`irreducible_def`): nhds; Topology/Defs/Filter.lean: nhdsWithin;
            // Topology/MetricSpace/Pseudo/Defs.lean (`export NNDist (nndist)`): nndist;
            // Analysis/Normed/Group/Basic.lean (`export NNNorm (nnnorm)`): nnnorm;
            // Analysis/Normed/Group/Basic.lean (`export Norm (norm)`): norm;
            // GroupTheory/OrderOfElement.lean (`#align order_of orderOf`): orderOf;
            // Order/SetNotation.lean (`export InfSet (sInf)`): sInf; Order/SetNotation.lean
            // (`export SupSet (sSup)`): sSup; Topology/UniformSpace/Cauchy.lean (`def CauchySeq
            // [Preorder β] (u : β → α) := Cauchy (atTop.map u)`): CauchySeq;
            // Topology/UniformSpace/Defs.lean (`def UniformContinuous [UniformSpace β] (f : α → β)
            // := Tendsto (fun x : α × α => (f x.1, f x.2)) (𝓤 α) (𝓤 β)`): UniformContinuous
            // Added for the resolver (file, what it declares, then the names); the paths are those
            // of the versions the excerpts came from (several files have since been split, moved):
            // Order/Monotone/Defs.lean (def): Monotone, Antitone, MonotoneOn, AntitoneOn,
            // StrictMono, StrictAnti, StrictMonoOn, StrictAntiOn;
            // Order/Bounds/Defs.lean (def): upperBounds, lowerBounds, BddAbove, BddBelow, IsLeast,
            // IsGreatest, IsLUB, IsGLB;
            // Algebra/Group/Defs.lean (class, `@[to_additive]` gives the additive ones, via indexed
            // excerpts): Monoid, AddMonoid, CommMonoid, AddCommMonoid, Group, AddGroup, CommGroup,
            // AddCommGroup;
            // Algebra/Ring/Defs.lean (class, via indexed excerpts): Semiring, CommSemiring, Ring,
            // CommRing, IsDomain;
            // Algebra/Field/Defs.lean (class): DivisionSemiring, DivisionRing, Semifield, Field;
            // Algebra/Module/Defs.lean (class, via indexed excerpts): Module;
            // Data/Finite/Defs.lean (class): Finite, Infinite;
            // Data/Countable/Defs.lean (class): Countable, Uncountable;
            // Topology/Algebra/InfiniteSum/Defs.lean (def, `@[to_additive]`): HasProd, HasSum,
            // Multipliable, Summable, tprod, tsum;
            // Logic/Nontrivial/Defs.lean (class): Nontrivial;
            // RingTheory/Nilpotent/Defs.lean (def): IsNilpotent;
            // Algebra/CharP/Defs.lean (`class _root_.CharP`, def): CharP, ringChar;
            // Topology/UnitInterval.lean (abbrev): unitInterval;
            // Topology/MetricSpace/Defs.lean (class, via indexed excerpts): MetricSpace;
            // src/Init/Prelude.lean (core: `structure Fin`, `inductive List`, `inductive Option`,
            // `structure Prod`, `class inductive Nonempty`, `def id`, `class Max`/`class Min` with
            // `export Max (max)`, `export Min (min)`; core: `structure Subtype`, `class inductive
            // Decidable`, `abbrev DecidableEq`, `abbrev DecidableRel`, `class Inhabited` with
            // `export Inhabited (default)`; core: `inductive Nat`, via indexed excerpts): Fin,
            // List, Option, Prod, Nonempty, id, Max, Min, max, min, Subtype, Decidable,
            // DecidableEq, DecidableRel, Inhabited, default, Nat;
            // src/Init/Data/Int/Basic.lean (core: `inductive Int`, via indexed excerpts): Int;
            // Topology/Defs/Filter.lean (class): CompactSpace, NoncompactSpace,
            // WeaklyLocallyCompactSpace, LocallyCompactSpace, LocallyCompactPair;
            // Topology/Separation.lean (class; the older single file, via indexed excerpts):
            // T0Space, T1Space, T2Space, RegularSpace, T3Space, NormalSpace, T4Space;
            // Topology/Connected/Basic.lean (def, class, via indexed excerpts): IsPreconnected,
            // IsConnected, connectedComponent, PreconnectedSpace, ConnectedSpace;
            // Topology/Connected/PathConnected.lean (def, class, via indexed excerpts):
            // IsPathConnected, PathConnectedSpace;
            // Topology/Order/Basic.lean (class): OrderTopology;
            // Topology/UniformSpace/Cauchy.lean (class, via indexed excerpts): CompleteSpace;
            // Analysis/Calculus/FDeriv/Basic.lean (def, structure, via indexed excerpts):
            // HasFDerivAtFilter, HasFDerivWithinAt, HasFDerivAt, HasStrictFDerivAt,
            // DifferentiableWithinAt, DifferentiableAt, fderivWithin, fderiv, DifferentiableOn,
            // Differentiable;
            // Analysis/Calculus/Deriv/Basic.lean (def, via indexed excerpts): HasDerivWithinAt,
            // HasDerivAt, HasStrictDerivAt;
            // Analysis/Calculus/IteratedDeriv/Defs.lean (def, via indexed excerpts): iteratedDeriv;
            // Analysis/Calculus/ContDiff/Defs.lean (def, structure, via indexed excerpts):
            // ContDiffWithinAt, ContDiffOn, ContDiffAt, ContDiff, iteratedFDerivWithin,
            // iteratedFDeriv, HasFTaylorSeriesUpToOn, HasFTaylorSeriesUpTo;
            // Topology/UniformSpace/Basic.lean (def, via indexed excerpts): UniformContinuousOn;
            // Topology/UniformSpace/UniformConvergence.lean (def, via indexed excerpts):
            // TendstoUniformly, TendstoUniformlyOn, UniformCauchySeqOnFilter;
            // Topology/MetricSpace/Isometry.lean (def, via indexed excerpts): Isometry;
            // Topology/EMetricSpace/Lipschitz.lean (def, via indexed excerpts): LipschitzWith,
            // LipschitzOnWith;
            // Order/Disjoint.lean (def, via indexed excerpts): Disjoint, Codisjoint;
            // Algebra/Squarefree/Basic.lean (def, via indexed excerpts): Squarefree;
            // GroupTheory/SpecificGroups/Cyclic.lean (class, `@[to_additive IsAddCyclic]`, via
            // indexed excerpts): IsCyclic, IsAddCyclic;
            // GroupTheory/Subgroup/Simple.lean (class, via indexed excerpts): IsSimpleGroup,
            // IsSimpleAddGroup;
            // GroupTheory/Solvable.lean (class, via indexed excerpts): IsSolvable;
            // GroupTheory/PGroup.lean (def, via indexed excerpts): IsPGroup;
            // Algebra/Field/Subfield.lean (structure, via indexed excerpts): Subfield;
            // RingTheory/RootsOfUnity/PrimitiveRoots.lean (structure, via indexed excerpts):
            // IsPrimitiveRoot;
            // RingTheory/Algebraic.lean (def; the class `Algebra.IsAlgebraic` is namespaced, via
            // indexed excerpts): IsAlgebraic, Transcendental;
            // Data/Matrix/Basic.lean (def, via indexed excerpts): Matrix;
            // Analysis/InnerProductSpace/PiL2.lean (abbrev, via indexed excerpts): EuclideanSpace;
            // Logic/Basic.lean (class, via indexed excerpts): Fact;
            // Init/Order/Defs.lean (class, via indexed excerpts): Preorder, PartialOrder,
            // LinearOrder;
            // Algebra/GroupWithZero/Defs.lean (class, via indexed excerpts): NoZeroDivisors;
            // Algebra/EuclideanDomain/Defs.lean (class, via indexed excerpts): EuclideanDomain;
            // RingTheory/UniqueFactorizationDomain.lean (class, via indexed excerpts):
            // UniqueFactorizationMonoid;
            // Analysis/Normed/Group/Basic.lean (class, via indexed excerpts): NormedAddCommGroup;
            // Analysis/NormedSpace/Basic.lean (class, via indexed excerpts): NormedSpace;
            // Analysis/Normed/Field/Basic.lean (class, via indexed excerpts): NormedField;
            // Analysis/InnerProductSpace/Defs.lean (class, `export Inner (inner)`, via indexed
            // excerpts): Inner, inner, InnerProductSpace;
            // Analysis/RCLike/Basic.lean (class, via indexed excerpts): RCLike;
            // LinearAlgebra/FiniteDimensional/Defs.lean (abbrev, via indexed excerpts):
            // FiniteDimensional;
            // Algebra/Field/Basic.lean (structure; an older version of the file, via indexed
            // excerpts): IsField;
            // Init/Algebra/Classes.lean (class, via indexed excerpts): IsLinearOrder;
            // Logic/Pairwise.lean (def, via indexed excerpts): Pairwise;
            // Algebra/Group/Conj.lean (def, via indexed excerpts): IsConj;
            // Data/Multiset/Basic.lean (def, via indexed excerpts): Multiset;
            // src/Init/Core.lean (core: `inductive Sum`, `class Setoid`, `def Quotient`, via
            // indexed excerpts): Sum, Setoid, Quotient;
            // src/Init/WF.lean (core: `inductive WellFounded`, via indexed excerpts): WellFounded;
            // Order/Lattice.lean (class, via indexed excerpts): Lattice;
            // Order/CompleteLattice.lean (class, via indexed excerpts): CompleteLattice;
            // Order/BoundedOrder.lean (class; `BoundedOrder` extends `OrderTop`, `OrderBot`, via
            // indexed excerpts): OrderBot, OrderTop, BoundedOrder;
            // Analysis/Convex/Function.lean (def, via indexed excerpts): ConvexOn, ConcaveOn,
            // StrictConvexOn, StrictConcaveOn;
            // Analysis/Convex/Basic.lean (def, via indexed excerpts): Convex;
            // MeasureTheory/MeasurableSpace/Defs.lean (def, class, via indexed excerpts):
            // MeasurableSpace, MeasurableSet, Measurable;
            // MeasureTheory/Integral/IntervalIntegral.lean (def; `Integrable` itself is
            // `MeasureTheory.Integrable`, via indexed excerpts): IntervalIntegrable;
            // Algebra/Associated.lean (def, via indexed excerpts): Associated;
            // RingTheory/Coprime/Basic.lean (def, via indexed excerpts): IsCoprime;
            // Algebra/Divisibility/Units.lean (def; path inferred from the neighbouring
            // `isUnit_of_dvd_unit`, via indexed excerpts): IsRelPrime;
            // Algebra/Group/Commute/Defs.lean (def, `@[to_additive]`, via indexed excerpts):
            // Commute, AddCommute;
            // Algebra/Group/Semiconj/Defs.lean (def, `@[to_additive]`, via indexed excerpts):
            // SemiconjBy, AddSemiconjBy;
            // Algebra/Group/Submonoid/Defs.lean (structure, via indexed excerpts): Submonoid,
            // AddSubmonoid;
            // Algebra/Algebra/Subalgebra/Basic.lean (structure, via indexed excerpts): Subalgebra;
            // FieldTheory/IntermediateField.lean (structure, via indexed excerpts):
            // IntermediateField;
            // Algebra/Module/Submodule/Basic.lean (structure, via indexed excerpts): Submodule;
            // Algebra/Module/LinearMap/Defs.lean (structure, via indexed excerpts): LinearMap;
            // Algebra/Module/Equiv.lean (structure, via indexed excerpts): LinearEquiv;
            // Algebra/Algebra/Hom.lean (structure, via indexed excerpts): AlgHom;
            // Algebra/Ring/Hom/Defs.lean (structure, via indexed excerpts): RingHom;
            // Algebra/Group/Hom/Defs.lean (structure, `@[to_additive]`, via indexed excerpts):
            // MonoidHom, AddMonoidHom;
            // Algebra/Group/Equiv/Basic.lean (structure, `@[to_additive]`, via indexed excerpts):
            // MulEquiv, AddEquiv;
            // Algebra/Ring/Equiv.lean (structure, via indexed excerpts): RingEquiv;
            // Algebra/Algebra/Defs.lean (class, def, via indexed excerpts): Algebra, algebraMap;
            // RingTheory/IntegralClosure/IsIntegral/Defs.lean (def, via indexed excerpts):
            // IsIntegral;
            // FieldTheory/Minpoly/Basic.lean (noncomputable def, via indexed excerpts): minpoly;
            // FieldTheory/Finite/GaloisField.lean (def, via indexed excerpts): GaloisField;
            // RingTheory/PowerSeries/Basic.lean (def, via indexed excerpts): PowerSeries;
            // Data/ENNReal/Basic.lean (def, via indexed excerpts): ENNReal;
            // Data/Real/EReal.lean (def, via indexed excerpts): EReal;
            // src/Init/Data/Rat/Basic.lean (core `structure Rat` (`@[suggest_for ℚ]`); earlier in
            // Batteries, via indexed excerpts): Rat;
            // Data/DFinsupp/Basic.lean (structure, via indexed excerpts): DFinsupp;
            // LinearAlgebra/LinearIndependent.lean (def, via indexed excerpts): LinearIndependent;
            // Logic/IsEmpty.lean (class, via indexed excerpts): IsEmpty;
            // Logic/Unique.lean (structure, `attribute [class]`, via indexed excerpts): Unique;
            // Order/Atoms.lean (class, via indexed excerpts): IsSimpleOrder;
            // Algebra/Order/Archimedean.lean (class, via indexed excerpts): Archimedean;
            // Algebra/Order/Ring/Defs.lean (class `IsStrictOrderedRing`, the mixin of current
            // versions; classes `OrderedRing`, `StrictOrderedRing` of older versions, deprecated by
            // mathlib4 PR #20676, via indexed excerpts): IsStrictOrderedRing, OrderedRing,
            // StrictOrderedRing;
            // Algebra/Order/Field/Defs.lean (class of older versions, deprecated by mathlib4 PR
            // #20676 for `[Field α] [LinearOrder α] [IsStrictOrderedRing α]`, via indexed
            // excerpts): LinearOrderedSemifield, LinearOrderedField;
            // Order/Basic.lean (class, via indexed excerpts): DenselyOrdered;
            // Order/Max.lean (class, `export NoBotOrder`, `export NoTopOrder`, via indexed
            // excerpts): NoMinOrder, NoMaxOrder, NoBotOrder, NoTopOrder
            // Topology/UniformSpace/Defs.lean (class): UniformSpace;
            // Topology/Separation/SeparatedNhds.lean (def): SeparatedNhds;
            // Algebra/Group/Idempotent.lean (def): IsIdempotentElem;
            // Order/Atoms.lean (def): IsAtom, IsCoatom; Order/Max.lean (def): IsBot, IsTop;
            // Topology/Connected/PathConnected.lean (def): JoinedIn; Order/Synonym.lean (def): Lex
            "AccPt", "AddCommGroup", "AddCommMonoid", "AddCommute", "AddEquiv", "AddGroup",
            "AddMonoid", "AddMonoidHom", "AddSemiconjBy", "AddSubgroup", "AddSubmonoid", "AlgHom",
            "Algebra", "Antitone", "AntitoneOn", "Archimedean", "Associated", "BaireSpace",
            "BddAbove", "BddBelow", "BoundedOrder", "Cardinal", "CauchySeq", "CharP", "ClusterPt",
            "Codisjoint", "CommGroup", "CommMonoid", "CommRing", "CommSemiring", "Commute",
            "CompactSpace", "CompleteLattice", "CompleteSpace", "Complex", "ConcaveOn",
            "ConnectedSpace", "ContDiff", "ContDiffAt", "ContDiffOn", "ContDiffWithinAt",
            "Continuous", "ContinuousAt", "ContinuousOn", "ContinuousWithinAt", "Convex",
            "ConvexOn", "Countable", "DFinsupp", "Decidable", "DecidableEq", "DecidableRel",
            "Dense", "DenseRange", "DenselyOrdered", "Differentiable", "DifferentiableAt",
            "DifferentiableOn", "DifferentiableWithinAt", "Disjoint", "Dist", "DivisionRing",
            "DivisionSemiring", "ENNReal", "EReal", "Equiv", "EuclideanDomain", "EuclideanSpace",
            "Even", "Fact", "Field", "Filter", "Fin", "Finite", "FiniteDimensional", "Finset",
            "Finsupp", "Fintype", "FloorRing", "FloorSemiring", "GaloisField", "GaussianInt",
            "Group", "HasDerivAt", "HasDerivWithinAt", "HasFDerivAt", "HasFDerivAtFilter",
            "HasFDerivWithinAt", "HasFTaylorSeriesUpTo", "HasFTaylorSeriesUpToOn", "HasProd",
            "HasStrictDerivAt", "HasStrictFDerivAt", "HasSum", "Ideal", "InfSet", "Infinite",
            "Inhabited", "Inner", "InnerProductSpace", "Inseparable", "Int", "IntermediateField",
            "IntervalIntegrable", "Irrational", "Irreducible", "IsAddCyclic", "IsAddUnit",
            "IsAlgebraic", "IsAtom", "IsBot", "IsClopen", "IsClosed", "IsClosedMap", "IsCoatom",
            "IsCompact", "IsConj", "IsConnected", "IsCoprime", "IsCyclic", "IsDomain", "IsEmpty",
            "IsField", "IsGLB", "IsGreatest", "IsIdempotentElem", "IsIntegral", "IsLUB", "IsLeast",
            "IsLinearOrder", "IsNilpotent", "IsOfFinOrder", "IsOpen", "IsOpenMap", "IsPGroup",
            "IsPathConnected", "IsPreconnected", "IsPrimitiveRoot", "IsPrincipalIdealRing",
            "IsRelPrime", "IsSimpleAddGroup", "IsSimpleGroup", "IsSimpleOrder", "IsSolvable",
            "IsSquare", "IsStrictOrderedRing", "IsTop", "IsUnit", "Isometry", "JoinedIn",
            "Lattice", "Lex", "LinearEquiv", "LinearIndependent", "LinearMap", "LinearOrder",
            "LinearOrderedField", "LinearOrderedSemifield", "LipschitzOnWith", "LipschitzWith",
            "List", "LocallyCompactPair", "LocallyCompactSpace", "MapClusterPt", "Matrix", "Max",
            "Measurable", "MeasurableSet", "MeasurableSpace", "MetricSpace", "Min", "Module",
            "Monoid", "MonoidHom", "Monotone", "MonotoneOn", "MulEquiv", "Multipliable",
            "Multiset", "MvPolynomial", "NNDist", "NNNorm", "NNReal", "Nat", "NoBotOrder",
            "NoMaxOrder", "NoMinOrder", "NoTopOrder", "NoZeroDivisors", "NoncompactSpace",
            "Nonempty", "Nontrivial", "Norm", "NormalSpace", "NormalizerCondition",
            "NormedAddCommGroup", "NormedField", "NormedSpace", "Odd", "Option", "OrderBot",
            "OrderTop", "OrderTopology", "OrderedRing", "Ordinal", "Pairwise", "PartialOrder",
            "PathConnectedSpace", "Polynomial", "PowerSeries", "PreconnectedSpace", "Preorder",
            "Prime", "Prod", "PseudoMetricSpace", "Quotient", "RCLike", "Rat", "Real",
            "RegularSpace", "Ring", "RingEquiv", "RingHom", "SemiconjBy", "Semifield", "Semiring",
            "SeparatedNhds", "SeparationQuotient", "Set", "Setoid", "Specializes", "Squarefree",
            "StrictAnti", "StrictAntiOn", "StrictConcaveOn", "StrictConvexOn", "StrictMono",
            "StrictMonoOn", "StrictOrderedRing", "Subalgebra", "Subfield", "Subgroup", "Submodule",
            "Submonoid", "Subring", "Subtype", "Sum", "Summable", "SupSet", "Sylow", "T0Space",
            "T1Space", "T2Space", "T3Space", "T4Space", "TendstoUniformly", "TendstoUniformlyOn",
            "TopologicalSpace", "Transcendental", "Uncountable", "UniformCauchySeqOnFilter",
            "UniformContinuous", "UniformContinuousOn", "UniformSpace", "Unique",
            "UniqueFactorizationMonoid", "WeaklyLocallyCompactSpace", "WellFounded", "WellOrder",
            "ZMod", "Zsqrtd", "abs", "addOrderOf", "algebraMap", "closure", "connectedComponent",
            "default", "deriv", "derivWithin", "dist", "fderiv", "fderivWithin", "frontier", "gcd",
            "goldenConj", "goldenRatio", "iInf", "iSup", "id", "inner", "inseparableSetoid",
            "interior", "iteratedDeriv", "iteratedFDeriv", "iteratedFDerivWithin", "lcm", "lim",
            "limUnder", "lowerBounds", "mabs", "max", "min", "minpoly", "nhds", "nhdsSet",
            "nhdsWithin", "nndist", "nnnorm", "norm", "orderOf", "ringChar", "sInf", "sSup",
            "setOf", "specializationPreorder", "tprod", "tsum", "unitInterval", "upperBounds",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Prod", sources: &["src/Init/Prelude.lean (Lean core: `structure Prod` and its fields)"],
        complete: false, names: &[
            // Init/Prelude.lean: `structure Prod (α : Type u) (β : Type v) where fst : α  snd : β`
            "fst", "snd",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "ZMod", sources: &[
            "Mathlib/Data/ZMod/Defs.lean (root `ZMod`, via indexed excerpts)",
            "Mathlib/Data/ZMod/Basic.lean (the `val` definition and its docstring, via indexed excerpts)",
            "Mathlib/Data/ZMod/Basic.lean (`def chineseRemainder`, via indexed excerpts)",
            "Mathlib/NumberTheory/LegendreSymbol/ZModChar.lean (`def χ₄`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Data/ZMod/Basic.lean: val; Data/ZMod/Basic.lean (named in the docstring of `val`):
            // valMinAbs;
            // Data/ZMod/Basic.lean (via indexed excerpts): chineseRemainder;
            // NumberTheory/LegendreSymbol/ZModChar.lean (`def χ₄ : MulChar (ZMod 4) ℤ` inside
            // `namespace ZMod`, via indexed excerpts): χ₄
            "chineseRemainder", "val", "valMinAbs", "χ₄",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Filter",
        sources: &[
            "Mathlib/Order/Filter/Defs.lean (the `Tendsto` and `comap` definitions, via indexed excerpts)",
            "Mathlib/Order/LiminfLimsup.lean (`IsBounded`, `IsBoundedUnder`, `IsCobounded`, `limsSup`, `limsInf`, `limsup`, `liminf`, `blimsup`, via indexed excerpts)",
            "Mathlib/Order/Filter/Cofinite.lean (`def cofinite`, via indexed excerpts)",
            "Mathlib/Order/Filter/Defs.lean (`protected def Frequently`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // older Order/Filter/Basic.lean declaration extract (`#align filter.*`): EventuallyEq,
            // EventuallyLE, bind, copy, generate, giGenerate, join, kernMap, map, mkOfClosure,
            // principal, seq; older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            // (class): NeBot; Order/Filter/Defs.lean: Tendsto, comap; Order/Filter/AtTopBot
            // (`#align filter.at_bot`): atBot; Order/Filter/AtTopBot (`#align filter.at_top`):
            // atTop; Topology/Defs/Filter.lean (`def Filter.coclosedCompact`): coclosedCompact;
            // Topology/Defs/Filter.lean (`def Filter.cocompact`): cocompact; older
            // Order/Filter/Basic.lean declaration extract (`#align filter.*`) (structure field):
            // sets;
            // Order/LiminfLimsup.lean (via indexed excerpts): IsBounded, IsBoundedUnder,
            // IsCobounded, blimsup, liminf, limsInf, limsSup, limsup; Order/Filter/Cofinite.lean
            // (via indexed excerpts): cofinite
            "EventuallyEq", "EventuallyLE", "IsBounded", "IsBoundedUnder", "IsCobounded", "NeBot",
            "Tendsto", "atBot", "atTop", "bind", "blimsup", "coclosedCompact", "cocompact",
            "cofinite", "comap", "copy", "generate", "giGenerate", "join", "kernMap", "liminf",
            "limsInf", "limsSup", "limsup", "map", "mkOfClosure", "principal", "seq", "sets",
        ],
        protected: &[
            // Order/Filter/Defs.lean (`protected def Eventually`; `∀ᶠ x in f, p x` is its global notation)
            "Eventually", "monad",
            // Order/Filter/Defs.lean (`protected def Frequently`; `∃ᶠ x in f, p x` is its global
            // notation)
            "Frequently",
        ],
        scoped_notations: &[
            // Order/Filter/Defs.lean: `scoped notation "𝓟" => Filter.principal`
            ("𝓟", "Filter.principal"),
        ],
    },
    NamespaceNames {
        // `nhds` and `nhdsWithin` are root declarations; `Topology` only scopes their notations.
        // Definitions that newer Mathlib places in namespace `Topology` were not surveyed.
        namespace: "Topology",
        sources: &["Mathlib/Topology/Defs/Filter.lean (notation block, via indexed excerpts)"],
        complete: false, names: &[], protected: &[], scoped_notations: &[
            ("𝓝", "nhds"), ("𝓝[s] x", "nhdsWithin"), ("𝓝[≠] x", "nhdsWithin x {x}ᶜ"),
            ("𝓝[≥] x", "nhdsWithin x (Set.Ici x)"),
        ],
    },
    NamespaceNames {
        namespace: "ArithmeticFunction",
        sources: &["Mathlib/NumberTheory/ArithmeticFunction.lean (the `sigma` definition and notation, via indexed excerpts)"],
        complete: false, names: &["sigma"], // every name: NumberTheory/ArithmeticFunction.lean
        protected: &[], scoped_notations: &[
            // also declared as `scoped[ArithmeticFunction.sigma] notation "σ"`
            ("σ", "ArithmeticFunction.sigma"),
        ],
    },
    NamespaceNames {
        // Defs such as `Rat.divInt`, `Rat.floor` were not checked.
        namespace: "Rat", sources: &[
            "src/Init/Data/Rat/Basic.lean (the `Rat` structure, via indexed excerpts)",
            "Mathlib/Data/Rat/Sqrt.lean (`Rat.sqrt`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // src/Init/Data/Rat/Basic.lean (structure field): den, den_nz, num, reduced;
            // src/Init/Data/Rat/Basic.lean (constructor): mk'; Mathlib/Data/Rat/Sqrt.lean: sqrt
            "den", "den_nz", "mk'", "num", "reduced", "sqrt",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `Subgroup` and `AddSubgroup` are root structures. `IsComplement` (GroupTheory/Complement)
        // was not read. `closure`, `center` and `centralizer` collide with root `closure`
        // (topological) and `Set.center`/`Set.centralizer` under `open Subgroup Set`.
        namespace: "Subgroup", sources: &[
            "Mathlib/Algebra/Group/Subgroup/Lattice.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean (whole extract, 13740 characters)",
            "Mathlib/GroupTheory/Index.lean (the `index`/`relindex` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Group/Subgroup/ZPowers.lean (an older version's `zpowers` definition, via an indexed excerpt)",
            "Mathlib/GroupTheory/Finiteness.lean (`def Subgroup.FG`, via indexed excerpts)",
            "Mathlib/GroupTheory/Index.lean (`class FiniteIndex`, `noncomputable def relIndex` and `@[deprecated] alias relindex := relIndex` in newer versions, via indexed excerpts)",
        ],
        complete: false, names: &[
            // older GroupTheory/Subgroup/Basic.lean (structure): Characteristic, IsCommutative;
            // GroupTheory/Complement.lean (`#align subgroup.is_complement`, via indexed excerpts):
            // IsComplement; GroupTheory/Complement.lean (abbrev): IsComplement'; older
            // GroupTheory/Subgroup/Basic.lean (structure, made a class): Normal; older
            // GroupTheory/Subgroup/Basic.lean (now GroupTheory/Subgroup/Center.lean): center; older
            // GroupTheory/Subgroup/Basic.lean (now GroupTheory/Subgroup/Centralizer.lean):
            // centralizer; Algebra/Group/Subgroup/Lattice.lean: closure, topEquiv; older
            // GroupTheory/Subgroup/Basic.lean: closureCommGroupOfComm, comap, copy,
            // equivMapOfInjective, inclusion, map, normalClosure, normalCore, normalizer, ofDiv,
            // pi, prod, prodEquiv, setNormalizer, subgroupOf, subgroupOfEquivOfLe, subtype;
            // GroupTheory/Index.lean (noncomputable def): index; GroupTheory/Index.lean (named in
            // its docstrings/excerpts): relindex; Algebra/Group/Subgroup/Lattice.lean (`def
            // Subgroup.toAddSubgroup`): toAddSubgroup; Algebra/Group/Subgroup/Lattice.lean
            // (abbrev): toAddSubgroup'; Algebra/Group/Subgroup/ZPowers.lean (older version):
            // zpowers;
            // GroupTheory/Finiteness.lean (`def Subgroup.FG`, via indexed excerpts): FG;
            // GroupTheory/Index.lean (class, via indexed excerpts): FiniteIndex;
            // GroupTheory/Index.lean (newer versions rename `relindex` to `relIndex`, keeping
            // `relindex` as a deprecated alias): relIndex
            "Characteristic", "FG", "FiniteIndex", "IsCommutative", "IsComplement", "IsComplement'",
            "Normal", "center", "centralizer", "closure", "closureCommGroupOfComm", "comap", "copy",
            "equivMapOfInjective", "inclusion", "index", "map", "normalClosure", "normalCore",
            "normalizer", "ofDiv", "pi", "prod", "prodEquiv", "relIndex", "relindex",
            "setNormalizer", "subgroupOf", "subgroupOfEquivOfLe", "subtype", "toAddSubgroup",
            "toAddSubgroup'", "topEquiv", "zpowers",
        ],
        protected: &[
            // Algebra/Group/Subgroup/Lattice.lean
            "gi",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        // `Ideal` is a root abbrev (`Submodule R R`), so `Submodule` names also apply by dot
        // notation but not by `open Ideal`. `Ideal.Quotient` is a namespace (`Ideal.Quotient.mk`);
        // whether a declaration named `Ideal.Quotient` exists was not checked.
        namespace: "Ideal", sources: &[
            "Mathlib/RingTheory/Ideal/Defs.lean", "Mathlib/RingTheory/Ideal/Span.lean",
            "Mathlib/RingTheory/Ideal/Prime.lean",
            "Mathlib/RingTheory/Ideal/Maximal.lean (the `IsMaximal` class, via indexed excerpts)",
            "Mathlib/RingTheory/Jacobson (the `jacobson` definition, via indexed excerpts)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/RingTheory/Ideal/Operations.lean and Maps (whole extract, 6035 characters)",
            "Mathlib/RingTheory/Finiteness/Defs.lean (`def FG (I : Ideal R) : Prop`, via indexed excerpts)",
            "Mathlib/RingTheory/Ideal/Quotient/Defs.lean (`instance : HasQuotient R (Ideal R)` and `namespace Quotient`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // RingTheory/Ideal/Maximal.lean (class): IsMaximal; older extract (`#align
            // ideal.is_primary`): IsPrimary; RingTheory/Ideal/Prime.lean (class): IsPrime; older
            // extract (`#align ideal.is_radical`): IsRadical; older extract: basisSpanSingleton,
            // finsuppTotal, giMapComap, mapHom, orderEmbeddingOfSurjective, relIsoOfBijective,
            // relIsoOfSurjective; older extract (`#align ideal.comap`): comap;
            // RingTheory/Ideal/Prime.lean: iInfPrimeCompl, primeCompl; RingTheory/Jacobson (`#align
            // ideal.jacobson`): jacobson; older extract (`#align ideal.map`): map;
            // RingTheory/Ideal/Span.lean: ofRel, span; older extract (`#align ideal.radical`):
            // radical;
            // RingTheory/Finiteness (`def FG (I : Ideal R) : Prop`, via indexed excerpts): FG.
            // `Ideal.Quotient` is only a namespace (`R ⧸ I` comes from `instance : HasQuotient R
            // (Ideal R)`), so it is not listed
            "FG", "IsMaximal", "IsPrimary", "IsPrime", "IsRadical", "basisSpanSingleton", "comap",
            "finsuppTotal", "giMapComap", "iInfPrimeCompl", "jacobson", "map", "mapHom", "ofRel",
            "orderEmbeddingOfSurjective", "primeCompl", "radical", "relIsoOfBijective",
            "relIsoOfSurjective", "span",
        ],
        protected: &[], scoped_notations: &[
            // RingTheory/Ideal/Span.lean: `scoped syntax "⟪" term,* (":" term)? "⟫"`, expanding to
            // `Ideal.span {x₁, …, xₙ}`
            ("⟪x₁, …, xₙ⟫", "Ideal.span"),
        ],
    },
    NamespaceNames {
        // The `R ∙ x` notation for `span R {x}` is a plain (global) `notation` inside
        // `namespace Submodule`, so it needs no `open`.
        namespace: "Submodule", sources: &[
            "Mathlib/LinearAlgebra/Span/Defs.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/RingTheory/Ideal/Operations.lean (whole extract, 6035 characters)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/Algebra/Module/Submodule/Map.lean (whole extract, 4781 characters)",
            "Mathlib/RingTheory/Finiteness/Defs.lean (`def FG (N : Submodule R M) : Prop`, via indexed excerpts)",
            "Mathlib/Algebra/Module/Submodule/Defs.lean (`protected def subtype : p →ₗ[R] M`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // LinearAlgebra/Span/Defs.lean (class): IsPrincipal; older extract (abbrev, `#align
            // submodule.annihilator`): annihilator; older extract (`#align submodule.colon`):
            // colon; older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align
            // submodule.*`): comap, comapSubtypeEquivOfLe, compatibleMaps, equivMapOfInjective,
            // gciMapComap, giMapComap, map, orderIsoMapComap, orderIsoMapComapOfBijective;
            // LinearAlgebra/Span/Defs.lean: span;
            // RingTheory/Finiteness/Defs.lean (`def FG (N : Submodule R M) : Prop`, via indexed
            // excerpts): FG
            "FG", "IsPrincipal", "annihilator", "colon", "comap", "comapSubtypeEquivOfLe",
            "compatibleMaps", "equivMapOfInjective", "gciMapComap", "giMapComap", "map",
            "orderIsoMapComap", "orderIsoMapComapOfBijective", "span",
        ],
        protected: &[
            // LinearAlgebra/Span/Defs.lean
            "gi",
            // Algebra/Module/Submodule/Defs.lean (`protected def subtype`)
            "subtype",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        // `IsOpen`, `IsClosed`, `closure`, `interior`, `frontier`, `Continuous` are root names;
        // the class field `TopologicalSpace.IsOpen` is protected, so `open TopologicalSpace` adds
        // no second reading of `IsOpen`.
        namespace: "TopologicalSpace", sources: &[
            "Mathlib/Topology/Defs/Basic.lean",
            "Mathlib/Topology/Order.lean (`GenerateOpen`, `generateFrom`, `mkOfNhds`, via indexed excerpts)",
            "Mathlib/Topology/Sets/Opens.lean and Sets/Closeds.lean (`Opens`, `Closeds`, via indexed excerpts)",
            "Mathlib/Topology/Bases.lean (first 16000 characters)",
        ],
        complete: false, names: &[
            // Topology/Sets/Closeds.lean (structure): Closeds; Topology/Bases.lean (module doc:
            // `TopologicalSpace.`-prefixed in its main definitions/results) (class):
            // FirstCountableTopology, SecondCountableTopology, SeparableSpace; Topology/Order.lean
            // (inductive): GenerateOpen; Topology/Bases.lean (module doc:
            // `TopologicalSpace.`-prefixed in its main definitions/results): IsSeparable;
            // Topology/Bases.lean (structure): IsTopologicalBasis; Topology/Sets/Opens.lean
            // (structure): Opens; Topology/Order.lean: generateFrom, mkOfNhds
            "Closeds", "FirstCountableTopology", "GenerateOpen", "IsSeparable",
            "IsTopologicalBasis", "Opens", "SecondCountableTopology", "SeparableSpace",
            "generateFrom", "mkOfNhds",
        ],
        protected: &[
            // Topology/Defs/Basic.lean (class fields)
            "IsOpen", "isOpen_inter", "isOpen_sUnion", "isOpen_univ",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        // `dist` and `nndist` are root names (`export Dist (dist)`, `export NNDist (nndist)`);
        // `EMetric.diam` is a different namespace.
        namespace: "Metric", sources: &[
            "Mathlib/Topology/MetricSpace/Pseudo/Defs.lean (first 16000 characters)",
            "the `Metric.diam` definition (`ENNReal.toReal (EMetric.diam s)`, via an indexed excerpt)",
        ],
        complete: false, names: &[
            // Topology/MetricSpace/Pseudo/Defs.lean: ball, closedBall; indexed excerpt
            // (noncomputable def): diam; Topology/MetricSpace/Pseudo/Defs.lean (module doc;
            // definition follows the part read): sphere
            "ball", "closedBall", "diam", "sphere",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `ℤ√d` is a plain (global) `prefix` notation for `Zsqrtd d`. Under `open Zsqrtd`, `norm`
        // also has the root reading (`Norm.norm`, not surveyed here).
        namespace: "Zsqrtd",
        sources: &["Mathlib/NumberTheory/Zsqrtd/Basic.lean (first 16000 characters)"],
        complete: false, names: &[
            // NumberTheory/Zsqrtd/Basic.lean: Nonnegg, SqLe, norm, normMonoidHom, ofInt, sqrtd;
            // NumberTheory/Zsqrtd/Basic.lean (structure field): im, re;
            // NumberTheory/Zsqrtd/Basic.lean (constructor): mk
            "Nonnegg", "SqLe", "im", "mk", "norm", "normMonoidHom", "ofInt", "re", "sqrtd",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Bornology", sources: &[
            "Mathlib/Topology/Bornology/Basic.lean (the `IsCobounded`/`IsBounded` definitions, via indexed excerpts)",
            "Mathlib/Topology/MetricSpace/Pseudo/Defs.lean (first 16000 characters: `Bornology.ofDist`, uses of `Bornology.cobounded`, `Bornology.ofBounded`)",
        ],
        complete: false, names: &[
            // Topology/Bornology/Basic.lean: IsBounded, IsCobounded; Topology/Bornology/Basic.lean
            // (written `Bornology.cobounded α` in Pseudo/Defs.lean): cobounded;
            // Topology/Bornology/Basic.lean (used by `Bornology.ofDist`): ofBounded;
            // Topology/MetricSpace/Pseudo/Defs.lean (abbrev): ofDist
            "IsBounded", "IsCobounded", "cobounded", "ofBounded", "ofDist",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Module", sources: &[
            "Mathlib/LinearAlgebra/Dimension/Finrank.lean (the `finrank` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Dimension/Basic.lean (the `Module.rank` definition, via indexed excerpts)",
            "an indexed declaration extract of older Mathlib/RingTheory/Ideal/Operations.lean (`def _root_.Module.annihilator`)",
            "Mathlib/LinearAlgebra/Dual/Defs.lean (`abbrev Dual := M →ₗ[R] R` inside `namespace Module`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/FreeModule/Basic.lean (`class Module.Free`, via indexed excerpts)",
            "Mathlib/RingTheory/Finiteness/Defs.lean (`protected class Module.Finite`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // RingTheory/Ideal/Operations.lean (older extract): annihilator;
            // LinearAlgebra/Dimension/Finrank.lean (noncomputable def): finrank;
            // LinearAlgebra/Dual (abbrev, via indexed excerpts): Dual;
            // LinearAlgebra/FreeModule/Basic.lean (`class Module.Free`, via indexed excerpts): Free
            "Dual", "Free", "annihilator", "finrank",
        ],
        protected: &[
            // LinearAlgebra/Dimension/Basic.lean (`protected irreducible_def Module.rank`, protected
            // "to avoid conflicts with `_root_.rank`")
            "rank",
            // RingTheory/Finiteness/Defs.lean (`protected class Module.Finite`)
            "Finite",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "FiniteDimensional", sources: &[
            "Mathlib/LinearAlgebra/FiniteDimensional/Defs.lean (fintypeBasisIndex)",
            "Mathlib/LinearAlgebra/FiniteDimensional/Basic.lean (basisSingleton)",
            "Mathlib/LinearAlgebra/FiniteDimensional/Lemmas.lean (LinearEquiv.quotEquivOfEquiv, LinearEquiv.quotEquivOfQuotEquiv)",
            "older Mathlib/LinearAlgebra/Dimension/Finrank.lean (`noncomputable def finrank`, later a protected deprecated alias of `Module.finrank`, now gone)",
            "older Mathlib/LinearAlgebra/Dimension/Free.lean (finBasis, finBasisOfFinrankEq, basisUnique, now in `Module`)",
            "older Mathlib/LinearAlgebra/FiniteDimensional.lean (fintypeOfFintype)",
        ],
        // Not complete: which of the names that moved to `Module` kept an alias here depends on
        // the Mathlib version. `finrank` is listed unprotected, as the versions the benchmark
        // headers were written for have it, so that under `open FiniteDimensional Module` it is
        // ambiguous (never a rewrite) rather than `Module.finrank`.
        complete: false, names: &[
            "basisSingleton", "basisUnique", "finBasis", "finBasisOfFinrankEq", "finrank",
            "fintypeBasisIndex", "fintypeOfFintype",
        ],
        protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Module.End", sources: &[
            "Mathlib/LinearAlgebra/Eigenspace/Basic.lean (the eigenspace and eigenvalue definitions)",
        ],
        complete: false, names: &[
            // LinearAlgebra/Eigenspace/Basic.lean: genEigenspace, HasUnifEigenvector,
            // HasUnifEigenvalue, UnifEigenvalues (defs); eigenspace, HasEigenvector, HasEigenvalue,
            // Eigenvalues, HasGenEigenvector, HasGenEigenvalue, maxGenEigenspace (abbrevs)
            "Eigenvalues", "HasEigenvalue", "HasEigenvector", "HasGenEigenvalue",
            "HasGenEigenvector", "HasUnifEigenvalue", "HasUnifEigenvector", "UnifEigenvalues",
            "eigenspace", "genEigenspace", "maxGenEigenspace",
        ],
        protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `LinearMap.det` is protected: under `open LinearMap`, `det` does not reach it (but
        // `Matrix.det` under `open Matrix` does).
        namespace: "LinearMap", sources: &[
            "Mathlib/LinearAlgebra/Determinant.lean (the `det` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Trace.lean (the `trace` definition, via indexed excerpts)",
            "qualified uses `LinearMap.ker`, `LinearMap.range`, `LinearMap.toSpanSingleton`, ... in the files read for `Ideal`, `Matrix`, `Submodule`",
            "Mathlib/Algebra/Module/LinearMap/Defs.lean (`def copy`, `def id`, `def id'`, via indexed excerpts)",
            "Mathlib/Analysis/InnerProductSpace/Symmetric.lean (`def IsSymmetric` inside `namespace LinearMap`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // written qualified (`LinearMap.codRestrict`) in Mathlib sources read (Submodule/Map
            // extract): codRestrict; LinearAlgebra/Determinant.lean (named by `LinearMap.det`'s
            // definition): detAux; written qualified (`LinearMap.domRestrict`) in Mathlib sources
            // read (Submodule/Map extract): domRestrict; written qualified (`LinearMap.ker`) in
            // Mathlib sources read (RingTheory/Ideal/Span.lean): ker; written qualified
            // (`LinearMap.lsmul`) in Mathlib sources read (Module.annihilator): lsmul; written
            // qualified (`LinearMap.proj`) in Mathlib sources read (Matrix.detRowAlternating):
            // proj; written qualified (`LinearMap.range`) in Mathlib sources read
            // (LinearAlgebra/Matrix/Rank.lean): range; older Algebra/Module/Submodule/Map.lean
            // declaration extract: submoduleMap; written qualified (`LinearMap.toMatrix`) in
            // Mathlib sources read (LinearAlgebra/Trace.lean): toMatrix; written qualified
            // (`LinearMap.toSpanSingleton`) in Mathlib sources read (RingTheory/Ideal/Span.lean):
            // toSpanSingleton; LinearAlgebra/Trace.lean (`#align linear_map.trace`): trace;
            // Analysis/InnerProductSpace/Symmetric.lean (`def IsSymmetric`, via indexed excerpts):
            // IsSymmetric; Algebra/Module/LinearMap/Defs.lean (`def id : M →ₗ[R] M`, `def id'`,
            // `#align linear_map.copy`, via indexed excerpts): copy, id, id'
            "IsSymmetric", "codRestrict", "copy", "detAux", "domRestrict", "id", "id'", "ker",
            "lsmul", "proj", "range", "submoduleMap", "toMatrix", "toSpanSingleton", "trace",
        ],
        protected: &[
            // LinearAlgebra/Determinant.lean (`protected irreducible_def det`)
            "det",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Matrix", sources: &[
            "Mathlib/LinearAlgebra/Matrix/Determinant/Basic.lean (the `det` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Trace.lean (the `trace` definitions, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Rank.lean (the `rank` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Defs.lean (first 16000 characters)",
            "Mathlib/LinearAlgebra/Matrix/ConjTranspose.lean (older Data/Matrix/Basic.lean: `def conjTranspose` and `scoped postfix:1024 \"ᴴ\"`, via indexed excerpts)",
            "Mathlib/Data/Matrix/Mul.lean (`def mulVec`, `def vecMul`, `scoped infixr:73 \" *ᵥ \"`, `scoped infixl:73 \" ᵥ* \"`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Charpoly/Basic.lean (`charmatrix`, `charpoly`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Symmetric.lean, IsDiag.lean, Hermitian.lean, PosDef.lean (`IsSymm`, `IsDiag`, `IsHermitian`, `PosDef`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Adjugate.lean (`cramer`, `adjugate`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/GeneralLinearGroup/Defs.lean, SpecialLinearGroup.lean (`abbrev GeneralLinearGroup`, `def SpecialLinearGroup`, via indexed excerpts)",
            "Mathlib/Data/Fin/VecNotation.lean (`def vecEmpty`, `def vecCons` and its docstring, via indexed excerpts)",
            "Mathlib/Data/Matrix/Block.lean (`def fromBlocks`, `def blockDiagonal`, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/PosDef.lean (`def PosSemidef`), LinearAlgebra/Vandermonde.lean (`def vandermonde`), Data/Matrix/Basic.lean (`def scalar`), via indexed excerpts",
            "qualified use `Matrix.unitaryGroup (Fin N) ℂ` (LinearAlgebra/UnitaryGroup.lean's abbrev, via indexed excerpts)",
            "Mathlib/LinearAlgebra/SymplecticGroup.lean (`def J : Matrix (l ⊕ l) (l ⊕ l) R` in `namespace Matrix`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // LinearAlgebra/Matrix/GeneralLinearGroup/Defs.lean (abbrev; `GL` is its global
            // notation): GeneralLinearGroup; LinearAlgebra/Matrix/IsDiag.lean: IsDiag;
            // LinearAlgebra/Matrix/Hermitian.lean: IsHermitian;
            // LinearAlgebra/Matrix/Symmetric.lean: IsSymm; LinearAlgebra/Matrix/PosDef.lean: PosDef;
            // LinearAlgebra/Matrix/SpecialLinearGroup.lean (`SL(n, R)` is scoped in
            // `MatrixGroups`, not here): SpecialLinearGroup; LinearAlgebra/Matrix/Adjugate.lean:
            // adjugate, cramer, cramerMap; LinearAlgebra/Matrix/Charpoly/Basic.lean: charmatrix,
            // charpoly; LinearAlgebra/Matrix/ConjTranspose.lean: conjTranspose;
            // LinearAlgebra/Matrix/Determinant/Basic.lean (abbrev): det;
            // LinearAlgebra/Matrix/Determinant/Basic.lean: detRowAlternating;
            // Data/Matrix/Basic.lean (`#align matrix.diagonal`): diagonal;
            // LinearAlgebra/Matrix/Defs.lean: map, of, ofAddEquiv, reindex, submatrix, transpose;
            // LinearAlgebra/Matrix/Defs.lean (abbrev): subDown, subDownRight, subLeft, subRight,
            // subUp, subUpRight; Data/Matrix/Mul.lean: mulVec, vecMul;
            // LinearAlgebra/Matrix/Rank.lean (noncomputable def): rank;
            // LinearAlgebra/Matrix/Trace.lean: trace, traceAddMonoidHom, traceLinearMap;
            // LinearAlgebra/Matrix/PosDef.lean: PosSemidef; Data/Matrix/Block.lean: blockDiagonal,
            // fromBlocks; Data/Matrix/Block.lean (named in `blockDiagonal`'s docstring as
            // `Matrix.blockDiagonal'`): blockDiagonal'; Data/Matrix/Basic.lean (`α →+* Matrix n n
            // α`): scalar; LinearAlgebra/UnitaryGroup.lean (written qualified `Matrix.unitaryGroup
            // (Fin N) ℂ` in Mathlib-based sources): unitaryGroup; LinearAlgebra/Vandermonde.lean:
            // vandermonde; Data/Fin/VecNotation.lean (`![a, b, ...]` is its global notation):
            // vecCons, vecEmpty; Data/Fin/VecNotation.lean (named in `vecCons`'s docstring):
            // vecHead, vecTail (all via indexed excerpts)
            "GeneralLinearGroup", "IsDiag", "IsHermitian", "IsSymm", "J", "PosDef", "PosSemidef",
            "SpecialLinearGroup", "adjugate", "blockDiagonal", "blockDiagonal'", "charmatrix",
            "charpoly", "conjTranspose", "cramer", "cramerMap", "det", "detRowAlternating",
            "diagonal", "fromBlocks", "map", "mulVec", "of", "ofAddEquiv", "rank", "reindex",
            "scalar", "subDown", "subDownRight", "subLeft", "subRight", "subUp", "subUpRight",
            "submatrix", "trace", "traceAddMonoidHom", "traceLinearMap", "transpose",
            "unitaryGroup", "vandermonde", "vecCons", "vecEmpty", "vecHead", "vecMul", "vecTail",
        ], protected: &[], scoped_notations: &[
            // LinearAlgebra/Matrix/Defs.lean: `scoped postfix:1024 "ᵀ" => Matrix.transpose`
            ("ᵀ", "Matrix.transpose"),
            // ConjTranspose.lean: `scoped postfix:1024 "ᴴ" => Matrix.conjTranspose`
            ("ᴴ", "Matrix.conjTranspose"),
            // Data/Matrix/Mul.lean: `scoped infixr:73 " *ᵥ " => Matrix.mulVec`,
            // `scoped infixl:73 " ᵥ* " => Matrix.vecMul`
            ("*ᵥ", "Matrix.mulVec"), ("ᵥ*", "Matrix.vecMul"),
        ],
    },
    NamespaceNames {
        // `volume` is the class field `MeasureTheory.MeasureSpace.volume`, exported into `MeasureTheory`;
        // `∀ᵐ`/`∃ᵐ` are global `notation3`.
        namespace: "MeasureTheory", sources: &[
            "Mathlib/MeasureTheory/Function/L1Space.lean (the `Integrable` definition, via indexed excerpts)",
            "Mathlib/MeasureTheory/Measure/MeasureSpaceDef.lean (`MeasureSpace` and `export MeasureSpace (volume)`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // MeasureTheory/Function/L1Space.lean (`#align measure_theory.integrable`): Integrable;
            // MeasureTheory/Measure/MeasureSpaceDef.lean (class): MeasureSpace;
            // MeasureTheory/Measure/MeasureSpaceDef.lean (`export MeasureSpace (volume)` inside
            // `namespace MeasureTheory`): volume
            "Integrable", "MeasureSpace", "volume",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "ENNReal",
        sources: &["Mathlib/Data/ENNReal/Basic.lean (the `toNNReal`/`toReal`/`ofReal` definitions, via indexed excerpts)"],
        complete: false, names: &[], protected: &[
            // Data/ENNReal/Basic.lean
            "ofReal", "toNNReal", "toReal",
        ],
        scoped_notations: &[
            // Data/ENNReal/Basic.lean: `scoped[ENNReal] notation "ℝ≥0∞" => ENNReal`, `"∞" => (⊤ : ENNReal)`
            ("ℝ≥0∞", "ENNReal"), ("∞", "(⊤ : ENNReal)"),
        ],
    },
    NamespaceNames {
        namespace: "Multiset", sources: &[
            "Mathlib/Data/Multiset/Basic.lean (the `card` definition, via indexed excerpts)",
            "Mathlib/Data/Finset/Dedup.lean (the `toFinset` definition, via indexed excerpts)",
            "Mathlib/Algebra/BigOperators/Group/Multiset.lean (the `prod`/`sum` definitions, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Data/Multiset/Basic.lean (`Multiset α →+ ℕ`): card;
            // Algebra/BigOperators/Group/Multiset.lean (`#align multiset.prod`): prod;
            // Algebra/BigOperators/Group/Multiset.lean (additive copy, `#align multiset.sum`): sum;
            // Algebra/BigOperators/Group/Multiset.lean: sumAddMonoidHom; Data/Finset/Dedup.lean:
            // toFinset; Data/Multiset/Range.lean: range; Data/Multiset/Basic.lean (and
            // Filter.lean, Replicate.lean in newer versions): count, erase, filter, map,
            // replicate, none protected, so each makes the short name ambiguous beside Finset's
            "card", "count", "erase", "filter", "map", "prod", "range", "replicate", "sum",
            "sumAddMonoidHom", "toFinset",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "List", sources: &[
            "src/Init/Data/List/Basic.lean (`length`, via an indexed excerpt of a ported file)",
            "Mathlib/Algebra/BigOperators/Group/List.lean (the `prod`/`sum`/`alternatingSum` definitions, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Algebra/BigOperators/Group/List.lean: alternatingSum; Lean core (`List.length`):
            // length; Algebra/BigOperators/Group/List.lean (now in core `List.prod`): prod;
            // Algebra/BigOperators/Group/List.lean (additive copy; in Lean core in newer versions):
            // sum; Lean core (src/Init/Data/List/Basic.lean, not protected): count, drop, erase,
            // filter, map, range, replicate, reverse, take
            "alternatingSum", "count", "drop", "erase", "filter", "length", "map", "prod", "range",
            "replicate", "reverse", "sum", "take",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // The extract drops modifiers other than on the structure fields; some of these (for
        // example `cast`, `decidableEq`, `inhabited`, `unique`, `ulift`, `plift`) may be
        // `protected`. `α ≃ β` is a global infix for `Equiv α β`.
        namespace: "Equiv",
        sources: &["an indexed declaration extract (with `#align equiv.*` lines) of older Mathlib/Logic/Equiv/Defs.lean (whole extract, 12092 characters)"],
        complete: false, names: &[
            // Logic/Equiv/Defs.lean (abbrev): Perm; Logic/Equiv/Defs.lean: arrowCongr, arrowCongr',
            // arrowPUnitEquivPUnit, arrowPUnitOfIsEmpty, cast, conj, decidableEq,
            // emptyArrowEquivPUnit, equivCongr, equivEmpty, equivEmptyEquiv, equivOfIsEmpty,
            // equivOfUnique, equivPEmpty, equivPUnit, falseArrowEquivPUnit, funUnique, inhabited,
            // ofBijective, ofIff, pemptyArrowEquivPUnit, permCongr, piUnique, plift, propEquivBool,
            // propEquivPEmpty, propEquivPUnit, psigmaCongrRight, psigmaEquivSigma,
            // psigmaEquivSigmaPLift, psigmaEquivSubtype, punitArrowEquiv, punitEquivPUnit, refl,
            // sigmaAssoc, sigmaCongr, sigmaCongrLeft, sigmaCongrLeft', sigmaCongrRight,
            // sigmaEquivProd, sigmaEquivProdOfEquiv, sigmaPLiftEquivSubtype,
            // sigmaULiftPLiftEquivSubtype, symm, trans, trueArrowEquiv, ulift, unique
            "Perm", "arrowCongr", "arrowCongr'", "arrowPUnitEquivPUnit", "arrowPUnitOfIsEmpty",
            "cast", "conj", "decidableEq", "emptyArrowEquivPUnit", "equivCongr", "equivEmpty",
            "equivEmptyEquiv", "equivOfIsEmpty", "equivOfUnique", "equivPEmpty", "equivPUnit",
            "falseArrowEquivPUnit", "funUnique", "inhabited", "ofBijective", "ofIff",
            "pemptyArrowEquivPUnit", "permCongr", "piUnique", "plift", "propEquivBool",
            "propEquivPEmpty", "propEquivPUnit", "psigmaCongrRight", "psigmaEquivSigma",
            "psigmaEquivSigmaPLift", "psigmaEquivSubtype", "punitArrowEquiv", "punitEquivPUnit",
            "refl", "sigmaAssoc", "sigmaCongr", "sigmaCongrLeft", "sigmaCongrLeft'",
            "sigmaCongrRight", "sigmaEquivProd", "sigmaEquivProdOfEquiv", "sigmaPLiftEquivSubtype",
            "sigmaULiftPLiftEquivSubtype", "symm", "trans", "trueArrowEquiv", "ulift", "unique",
        ],
        protected: &[
            // Logic/Equiv/Defs.lean (structure fields)
            "invFun", "left_inv", "right_inv", "toFun",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MonoidHom",
        sources: &[
            "an indexed declaration extract (with `#align monoid_hom.*` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean",
            "Mathlib/Algebra/Group/Hom/Defs.lean (`def MonoidHom.id`, `def MonoidHom.comp`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // older GroupTheory/Subgroup/Basic.lean: eqLocus, ker, liftOfRightInverse,
            // liftOfRightInverseAux, ofInjective, ofLeftInverse, range, rangeRestrict,
            // subgroupComap, subgroupMap; Algebra/Group/Hom/Defs.lean (`def MonoidHom.id`, `def
            // MonoidHom.comp`, via indexed excerpts): comp, id
            "comp", "eqLocus", "id", "ker", "liftOfRightInverse", "liftOfRightInverseAux",
            "ofInjective", "ofLeftInverse", "range", "rangeRestrict", "subgroupComap",
            "subgroupMap",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "RingHom",
        sources: &["an indexed declaration extract (with `#align ring_hom.*` lines) of older Mathlib/RingTheory/Ideal/Operations.lean"],
        complete: false, names: &[
            // older Mathlib/RingTheory/Subring/Basic.lean declaration extract (`#align
            // ring_hom.*`): eqLocus, range, rangeRestrict; older RingTheory/Ideal/Operations.lean:
            // ker, liftOfRightInverse, liftOfRightInverseAux
            "eqLocus", "ker", "liftOfRightInverse", "liftOfRightInverseAux", "range",
            "rangeRestrict",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Finsupp", sources: &[
            "Mathlib/Data/Finsupp/Defs.lean (the `Finsupp` structure and `→₀` notation, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Finsupp (the `supported`/`restrictDom` definitions, via indexed excerpts)",
        ],
        complete: false, names: &[
            // Data/Finsupp/Indicator.lean (named in `#align finsupp.support_indicator_subset`):
            // indicator; LinearAlgebra/Finsupp (`#align finsupp.restrict_dom`): restrictDom;
            // Data/Finsupp/Defs.lean (written `Finsupp.single n 1` by MvPolynomial.X): single;
            // Data/Finsupp (written `Finsupp.sum`; whether it is protected was not checked): sum;
            // Data/Finsupp/Defs.lean (structure field): support, toFun; LinearAlgebra/Finsupp
            // (`#align finsupp.supported`): supported
            "indicator", "restrictDom", "single", "sum", "support", "supported", "toFun",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `∠` is scoped: `open EuclideanGeometry` (or `open scoped EuclideanGeometry`) enables it.
        namespace: "EuclideanGeometry",
        sources: &["Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean (the `angle` definition and `∠` notation, via indexed excerpts)"],
        complete: false, names: &[
            // every name: Geometry/Euclidean/Angle/Unoriented/Affine.lean (`nonrec def`)
            "angle",
        ],
        protected: &[], scoped_notations: &[
            // `scoped notation "∠" => EuclideanGeometry.angle`
            ("∠", "EuclideanGeometry.angle"),
        ],
    },
    NamespaceNames {
        // `GaussianInt` is a root abbrev for `Zsqrtd (-1)`, so `Zsqrtd` names (`re`, `im`,
        // `norm`) apply to it by dot notation but not by `open GaussianInt`; `ℤ[i]` is a
        // `local notation` in its file, not available to statements. Its other declarations in
        // that file are instances and theorems.
        namespace: "GaussianInt",
        sources: &["Mathlib/NumberTheory/Zsqrtd/GaussianInt.lean (a ported version, whole file)"],
        complete: false, names: &[
            // every name: NumberTheory/Zsqrtd/GaussianInt.lean (`ℤ[i] →+* ℂ`)
            "toComplex",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MvPolynomial",
        sources: &["an indexed declaration extract (with `#align mv_polynomial.*` lines) of older Mathlib/Algebra/MvPolynomial/Basic.lean (whole extract, 3907 characters)"],
        complete: false, names: &[ // every name: MvPolynomial/Basic.lean
            "C", "X", "aeval", "aevalTower", "coeff", "coeffAddMonoidHom", "constantCoeff", "eval",
            "eval₂", "eval₂Hom", "map", "mapAlgHom", "monomial", "monomialOneHom", "support",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `F⟮x⟯` (adjoin notation) was not checked.
        namespace: "IntermediateField",
        sources: &[
            "Mathlib/FieldTheory/IntermediateField/Adjoin (the `adjoin` definition, via indexed excerpts)",
            "Mathlib/FieldTheory/Galois/Basic.lean (`def fixedField`, `(nonrec) def fixingSubgroup`, `def fixingSubgroupEquiv` inside `namespace IntermediateField`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // FieldTheory/IntermediateField/Adjoin (`#align intermediate_field.adjoin`): adjoin;
            // FieldTheory/Galois/Basic.lean (via indexed excerpts; root `fixingSubgroup` also
            // exists, so the short name has two readings): fixedField, fixingSubgroup,
            // fixingSubgroupEquiv
            "adjoin", "fixedField", "fixingSubgroup", "fixingSubgroupEquiv",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Subfield",
        sources: &["Mathlib/FieldTheory/IntermediateField/Adjoin (uses `Subfield.closure`, `Subfield.subset_closure`, via indexed excerpts)"],
        complete: false, names: &[
            // every name: Algebra/Field/Subfield (named as `Subfield.closure` in `IntermediateField.adjoin`)
            "closure",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // The extract drops modifiers, so a `protected` mark (e.g. on `gi`) would not show.
        namespace: "Subring",
        sources: &["an indexed declaration extract (with `#align subring.*` lines) of older Mathlib/RingTheory/Subring/Basic.lean (whole extract, 6614 characters)"],
        complete: false, names: &[ // every name: RingTheory/Subring/Basic.lean
            "center", "centralizer", "closure", "closureCommRingOfComm", "comap", "copy",
            "equivMapOfInjective", "gi", "inclusion", "map", "mk'", "prod", "prodEquiv", "subtype",
            "topEquiv",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // Additive copies (`to_additive`) of the `Subgroup` definitions; only those seen are listed.
        namespace: "AddSubgroup", sources: &[
            "Mathlib/Algebra/Group/Subgroup/Lattice.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align add_subgroup.*` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean",
            "`#align add_subgroup.center`, `add_subgroup.centralizer`, `add_subgroup.index` lines (via indexed excerpts)",
            "Mathlib/GroupTheory/Finiteness.lean and Mathlib/GroupTheory/Index.lean (`AddSubgroup.FG`, `AddSubgroup.FiniteIndex`, additive `relIndex`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // older GroupTheory/Subgroup/Basic.lean (structure): Characteristic, IsCommutative,
            // Normal; GroupTheory/Complement.lean (additive copy): IsComplement, IsComplement';
            // GroupTheory/Subgroup/Center.lean (additive copy): center;
            // GroupTheory/Subgroup/Centralizer.lean (additive copy): centralizer;
            // Algebra/Group/Subgroup/Lattice.lean (additive copy): closure, topEquiv;
            // GroupTheory/Index.lean (additive copy): index; Algebra/Group/Subgroup/Lattice.lean:
            // toSubgroup; Algebra/Group/Subgroup/Lattice.lean (abbrev): toSubgroup';
            // GroupTheory/Finiteness.lean (`#align add_subgroup.fg AddSubgroup.FG`): FG;
            // GroupTheory/Index.lean (`class _root_.AddSubgroup.FiniteIndex`): FiniteIndex;
            // GroupTheory/Index.lean (additive copy): relIndex
            "Characteristic", "FG", "FiniteIndex", "IsCommutative", "IsComplement", "IsComplement'",
            "Normal", "center", "centralizer", "closure", "index", "relIndex", "toSubgroup",
            "toSubgroup'", "topEquiv",
        ],
        protected: &[
            // Algebra/Group/Subgroup/Lattice.lean (additive copy of `Subgroup.gi`)
            "gi",
        ], scoped_notations: &[],
    },
    NamespaceNames {
        // `α ⧸ s` is the quotient notation (`HasQuotient`, root).
        namespace: "QuotientGroup",
        sources: &["Mathlib/GroupTheory/Coset (the `mk` definition, via indexed excerpts)"],
        complete: false, names: &[
            // every name: GroupTheory/Coset (abbrev, `#align quotient_group.mk`)
            "mk",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `Sylow p G` is a root structure extending `Subgroup G`.
        namespace: "Sylow",
        sources: &["Mathlib/GroupTheory/Sylow.lean (the `Sylow` structure, via indexed excerpts)"],
        complete: false, names: &[
            // GroupTheory/Sylow.lean (structure field): isPGroup', is_maximal';
            // GroupTheory/Sylow.lean (parent projection): toSubgroup
            "isPGroup'", "is_maximal'", "toSubgroup",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MulAction",
        sources: &["an indexed declaration extract (with `#align mul_action.*` lines) of older Mathlib/GroupTheory/GroupAction/Basic.lean (whole extract, 5642 characters)"],
        complete: false, names: &[ // every name: GroupTheory/GroupAction/Basic.lean
            "fixedBy", "fixedPoints", "orbit", "orbitRel", "selfEquivSigmaOrbits",
            "selfEquivSigmaOrbits'", "stabilizer", "stabilizerEquivStabilizerOfOrbitRel",
            "stabilizerSubmonoid",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        // `open Equiv.Perm` (or `open Equiv` then `Perm.sign`); `Equiv.Perm` itself is an abbrev.
        namespace: "Equiv.Perm", sources: &[
            "Mathlib/GroupTheory/Perm/Sign.lean (the `sign` definition, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Cycle/Type.lean (the `cycleType` definition, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Cycle/Basic.lean (`def IsCycle`, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Support.lean (`def IsSwap`, `def support`, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Cycle/Factors.lean (`def cycleOf`, `def cycleFactorsFinset`, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Support.lean (`def Disjoint`, via indexed excerpts)",
        ],
        complete: false, names: &[
            // GroupTheory/Perm/Cycle/Type.lean: cycleType; Logic/Equiv/Defs.lean (`#align
            // equiv.perm.sigma_congr_right`): sigmaCongrRight; GroupTheory/Perm/Sign.lean (`Perm α
            // →* ℤˣ`): sign; GroupTheory/Perm/Sign.lean (named by `sign`'s definition): signAux3;
            // GroupTheory/Perm/Cycle/Basic.lean (via indexed excerpts): IsCycle;
            // GroupTheory/Perm/Cycle/Basic.lean (named by `IsCycle`'s definition): SameCycle;
            // GroupTheory/Perm/Support.lean (via indexed excerpts): IsSwap, support;
            // GroupTheory/Perm/Support.lean (via indexed excerpts): Disjoint;
            // GroupTheory/Perm/Cycle/Factors.lean (via indexed excerpts): cycleFactorsFinset,
            // cycleOf; GroupTheory/Perm/Cycle/Factors.lean (named by `cycleOf`'s and
            // `cycleFactorsFinset`'s definitions): ofSubtype, subtypePerm, truncCycleFactors
            "Disjoint", "IsCycle", "IsSwap", "SameCycle", "cycleFactorsFinset", "cycleOf",
            "cycleType", "ofSubtype", "sigmaCongrRight", "sign", "signAux3", "subtypePerm",
            "support", "truncCycleFactors",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Cardinal", sources: &[
            "Mathlib/SetTheory/Cardinal/Basic.lean (the `mk` definition and `#` notation, via indexed excerpts)",
            "an indexed declaration extract (with `#align cardinal.*` lines) of older Mathlib/SetTheory/Cardinal/Basic.lean (whole extract, 2807 characters)",
        ],
        complete: false, names: &[
            // SetTheory/Cardinal/Basic.lean (older): IsLimit; SetTheory/Cardinal/Basic.lean:
            // aleph0, lift, liftOrderEmbedding, map, map₂, mk, outMkEquiv, powerlt, prod, sum;
            // SetTheory/Cardinal/Ordinal (older extract, `#align cardinal.gci_ord_card`):
            // gciOrdCard; SetTheory/Cardinal/Ordinal (older extract, `#align cardinal.ord`): ord
            "IsLimit", "aleph0", "gciOrdCard", "lift", "liftOrderEmbedding", "map", "map₂", "mk",
            "ord", "outMkEquiv", "powerlt", "prod", "sum",
        ],
        protected: &[], scoped_notations: &[
            // SetTheory/Cardinal/Basic.lean: `scoped prefix:max "#" => Cardinal.mk`
            ("#", "Cardinal.mk"),
            // SetTheory/Cardinal/Basic.lean: `scoped notation "ℵ₀" => Cardinal.aleph0`
            ("ℵ₀", "Cardinal.aleph0"),
        ],
    },
    NamespaceNames {
        namespace: "Ordinal",
        sources: &["an indexed declaration extract (with `#align ordinal.*` lines) of older Mathlib/SetTheory/Ordinal/Basic.lean (whole extract, 6818 characters)"],
        complete: false, names: &[
            // SetTheory/Ordinal/Basic.lean: card, enum, enumIso, enumIsoOut, initialSegOut, lift,
            // outOrderBotOfPos, principalSegOut, type, typein, univ; SetTheory/Ordinal/Basic.lean
            // (older; later renamed): omega
            "card", "enum", "enumIso", "enumIsoOut", "initialSegOut", "lift", "omega",
            "outOrderBotOfPos", "principalSegOut", "type", "typein", "univ",
        ], protected: &[], scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Relation",
        sources: &["Mathlib/Logic/Relation.lean (module doc and first 16000 characters)"],
        complete: false, names: &[
            // Logic/Relation.lean (module doc): ChurchRosser, Confluent, Diamond, Join;
            // Logic/Relation.lean: Comp, EqvGen, Fibration, ReflGen, ReflTransGen, SymmGen; Lean
            // core (`attribute [mk_iff] TransGen` in Logic/Relation.lean): TransGen
            "ChurchRosser", "Comp", "Confluent", "Diamond", "EqvGen", "Fibration", "Join",
            "ReflGen", "ReflTransGen", "SymmGen", "TransGen",
        ],
        protected: &[
            // Logic/Relation.lean: `protected def Map`
            "Map",
        ], scoped_notations: &[],
    },
];

/// Short names statements write that these namespaces hold, or may hold, beyond the files read
/// above (a hand list of Mathlib's names as statements use them, not read from its files). A
/// name here is a *possible* reading: it makes a short name ambiguous, and never resolves one.
#[rustfmt::skip]
pub const POSSIBLY_HELD: &[(&str, &[&str])] = &[
    ("", &[
            "closure", "interior", "frontier", "deriv", "abs", "max", "min", "id", "gcd", "lcm",
            "span", "dist",
        ]),
    ("Nat", &[
            // `digits`, `divisors`, `properDivisors`, `primeFactors`, `primeFactorsList`,
            // `Coprime`, `Perfect`, `count`, `nth`, `dist`, `iterate` (and the protected `cast`,
            // `card`, `find`) are now read from their files (`NAMESPACES`)
            "sqrt", "log", "factorial", "choose", "gcd", "lcm", "succ", "pred", "factors", "Prime",
            "totient", "fib", "floor", "ceil", "min", "max", "pow", "add", "sub", "mul", "div",
            "mod", "ModEq", "sum", "clog", "size", "descFactorial", "ascFactorial", "Even", "Odd",
            "le", "lt", "ofNat", "toFinset", "range", "Primes", "sInf", "sSup",
        ]),
    ("Real", &[
            "sqrt", "exp", "log", "logb", "cos", "sin", "tan", "cot", "arctan", "arcsin", "arccos",
            "cosh", "sinh", "tanh", "pi", "rpow", "toNNReal", "sign", "goldenRatio",
            "cast", "sInf", "sSup", "iInf", "iSup",
        ]),
    ("Rat", &[
            "num", "den", "floor", "ceil", "cast", "sqrt", "divInt", "add", "mul", "inv", "sub",
            "div", "normalize", "ofInt", "le", "lt",
        ]),
    ("Int", &[
            "floor", "ceil", "fract", "natAbs", "toNat", "gcd", "lcm", "sqrt", "log", "emod",
            "ediv", "sign", "cast", "ModEq", "Prime", "Even", "Odd", "negSucc", "ofNat", "div",
            "mod", "fdiv", "fmod", "add", "sub", "mul", "pow", "le", "lt",
        ]),
    ("Complex", &[
            "exp", "log", "abs", "re", "im", "I", "cos", "sin", "tan", "cpow", "arg", "ofReal",
            "normSq", "cosh", "sinh", "conj", "cast", "sqrt", "equivRealProd",
        ]),
    // `image`, `Icc`, ..., `biUnion`, `product` are now read from their files (`NAMESPACES`);
    // `insert` is the `Insert` instance, not a `Finset` declaration.
    ("Finset", &["card", "sum", "prod", "range", "filter", "univ"]),
    ("Fintype", &["card", "elems", "ofFinset", "ofList", "ofEquiv", "complete"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `Scope::resolve` looks names up with `binary_search`: each list must be sorted, without
    /// duplicates, and a name is reachable or protected, not both. Prints the table's size
    /// (`cargo test --lib mathlib_names -- --nocapture`).
    #[test]
    fn the_table_is_sorted_and_counted() {
        let mut total = 0;
        for entry in NAMESPACES {
            let names = entry.names;
            assert!(
                names.windows(2).all(|w| w[0] < w[1]),
                "{}: names not sorted or duplicated",
                entry.namespace
            );
            for p in entry.protected {
                assert!(
                    !names.contains(p),
                    "{}: {p} both reachable and protected",
                    entry.namespace
                );
            }
            total += names.len() + entry.protected.len();
        }
        let report = format!(
            "names table: {total} names in {} entries (the root included), {} signatures, {} global notations\n",
            NAMESPACES.len(),
            SIGNATURES.len(),
            GLOBAL_NOTATIONS.len()
        );
        std::io::Write::write_all(&mut std::io::stdout(), report.as_bytes()).expect("stdout");
        assert!(total > 500, "{report}");
    }
}
