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
pub const SIGNATURES: &[(&str, &str)] = &[
    // Mathlib/Data/Real/Sqrt.lean
    ("Real.sqrt", "ℝ → ℝ"),
    // Mathlib/Data/Complex/Exponential.lean, Mathlib/Data/Complex/Trigonometric.lean
    ("Complex.exp", "ℂ → ℂ"),
    ("Complex.sin", "ℂ → ℂ"),
    ("Complex.cos", "ℂ → ℂ"),
    ("Complex.tan", "ℂ → ℂ"),
    ("Complex.cot", "ℂ → ℂ"),
    ("Complex.sinh", "ℂ → ℂ"),
    ("Complex.cosh", "ℂ → ℂ"),
    ("Complex.tanh", "ℂ → ℂ"),
    ("Real.exp", "ℝ → ℝ"),
    ("Real.sin", "ℝ → ℝ"),
    ("Real.cos", "ℝ → ℝ"),
    ("Real.tan", "ℝ → ℝ"),
    ("Real.cot", "ℝ → ℝ"),
    ("Real.sinh", "ℝ → ℝ"),
    ("Real.cosh", "ℝ → ℝ"),
    ("Real.tanh", "ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean
    ("Real.pi", "ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Log/Basic.lean, Log/Base.lean
    ("Real.log", "ℝ → ℝ"),
    ("Real.logb", "ℝ → ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Pow/Real.lean
    ("Real.rpow", "ℝ → ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Trigonometric/Inverse.lean, Arctan.lean
    ("Real.arcsin", "ℝ → ℝ"),
    ("Real.arccos", "ℝ → ℝ"),
    ("Real.arctan", "ℝ → ℝ"),
    // Mathlib/Data/Real/Sign.lean
    ("Real.sign", "ℝ → ℝ"),
    // Mathlib/Analysis/SpecialFunctions/Arsinh.lean
    ("Real.arsinh", "ℝ → ℝ"),
    // src/Init/Prelude.lean, src/Init/Data/Nat/*.lean
    ("Nat.succ", "ℕ → ℕ"),
    ("Nat.pred", "ℕ → ℕ"),
    ("Nat.add", "ℕ → ℕ → ℕ"),
    ("Nat.sub", "ℕ → ℕ → ℕ"),
    ("Nat.mul", "ℕ → ℕ → ℕ"),
    ("Nat.div", "ℕ → ℕ → ℕ"),
    ("Nat.mod", "ℕ → ℕ → ℕ"),
    ("Nat.pow", "ℕ → ℕ → ℕ"),
    ("Nat.gcd", "ℕ → ℕ → ℕ"),
    ("Nat.log2", "ℕ → ℕ"),
    ("Nat.sqrt", "ℕ → ℕ"),
    // Mathlib/Data/Rat/Sqrt.lean: `def sqrt (q : ℚ) : ℚ`
    ("Rat.sqrt", "ℚ → ℚ"),
    // Mathlib/Data/Nat/Factorial/Basic.lean, Choose/Basic.lean
    ("Nat.factorial", "ℕ → ℕ"),
    ("Nat.ascFactorial", "ℕ → ℕ → ℕ"),
    ("Nat.descFactorial", "ℕ → ℕ → ℕ"),
    ("Nat.choose", "ℕ → ℕ → ℕ"),
    ("Nat.multichoose", "ℕ → ℕ → ℕ"),
    // Mathlib/Data/Nat/Prime/Defs.lean, Totient.lean, Log.lean, Fib/Basic.lean
    ("Nat.minFac", "ℕ → ℕ"),
    ("Nat.totient", "ℕ → ℕ"),
    ("Nat.log", "ℕ → ℕ → ℕ"),
    ("Nat.clog", "ℕ → ℕ → ℕ"),
    ("Nat.fib", "ℕ → ℕ"),
    // src/Init/Data/Int/*.lean
    ("Int.natAbs", "ℤ → ℕ"),
    ("Int.toNat", "ℤ → ℕ"),
    ("Int.sign", "ℤ → ℤ"),
    ("Int.neg", "ℤ → ℤ"),
    ("Int.add", "ℤ → ℤ → ℤ"),
    ("Int.sub", "ℤ → ℤ → ℤ"),
    ("Int.mul", "ℤ → ℤ → ℤ"),
    ("Int.pow", "ℤ → ℕ → ℤ"),
    ("Int.negSucc", "ℕ → ℤ"),
    ("Int.ofNat", "ℕ → ℤ"),
    ("Int.negOfNat", "ℕ → ℤ"),
    ("Int.subNatNat", "ℕ → ℕ → ℤ"),
    ("Int.ediv", "ℤ → ℤ → ℤ"),
    ("Int.emod", "ℤ → ℤ → ℤ"),
    ("Int.tdiv", "ℤ → ℤ → ℤ"),
    ("Int.tmod", "ℤ → ℤ → ℤ"),
    ("Int.fdiv", "ℤ → ℤ → ℤ"),
    ("Int.fmod", "ℤ → ℤ → ℤ"),
    ("Int.bmod", "ℤ → ℕ → ℤ"),
    ("Int.bdiv", "ℤ → ℕ → ℤ"),
    ("Int.gcd", "ℤ → ℤ → ℕ"),
    ("Int.lcm", "ℤ → ℤ → ℕ"),
    // Mathlib/Data/Int/Sqrt.lean
    ("Int.sqrt", "ℤ → ℤ"),
    // Mathlib/Data/Complex/*.lean
    ("Complex.re", "ℂ → ℝ"),
    ("Complex.im", "ℂ → ℝ"),
    ("Complex.I", "ℂ"),
    ("Complex.ofReal'", "ℝ → ℂ"),
    ("Complex.abs", "ℂ → ℝ"),
    ("Complex.normSq", "ℂ → ℝ"),
    ("Complex.arg", "ℂ → ℝ"),
    ("Complex.log", "ℂ → ℂ"),
    ("Complex.cpow", "ℂ → ℂ → ℂ"),
];

/// Functions whose parameter is generic but does not take every number type, for choosing
/// between overloads: the number types an argument may have.
pub const ACCEPTS: &[(&str, &[&str])] = &[
    // Mathlib/Algebra/Order/Group/Unbundled/Abs.lean: `abs` needs `Lattice α` and `Neg α`
    // (`|a| = a ⊔ -a`): ℤ ℚ ℝ have both, ℕ has no negation, ℂ no lattice.
    ("abs", &["ℤ", "ℚ", "ℝ"]),
];

/// Global (unscoped) notations statements write, token and what it stands for, with the file.
pub const GLOBAL_NOTATIONS: &[(&str, &str)] = &[
    // Mathlib/Data/Real/Basic.lean: `notation "ℝ" => Real`
    ("ℝ", "Real"),
    // Mathlib/Data/Real/Sqrt.lean: `prefix:max "√" => Real.sqrt` (global, not scoped)
    ("√", "Real.sqrt"),
    // Mathlib/Algebra/Order/Floor/Defs.lean
    ("⌊a⌋₊", "Nat.floor"),
    ("⌈a⌉₊", "Nat.ceil"),
    ("⌊a⌋", "Int.floor"),
    ("⌈a⌉", "Int.ceil"),
    // Mathlib/Data/Nat/ModEq.lean: `notation:50 a " ≡ " b " [MOD " n "]" => ModEq n a b`
    ("a ≡ b [MOD n]", "Nat.ModEq"),
    // Mathlib/Data/Int/ModEq.lean
    ("a ≡ b [ZMOD n]", "Int.ModEq"),
    // `ℕ`, `ℤ`, `ℚ`: Mathlib's notations for `Nat`, `Int`, `Rat` (files not read; listed so the
    // table names every number-type token it uses)
    ("ℕ", "Nat"),
    ("ℤ", "Int"),
    ("ℚ", "Rat"),
    // Mathlib/Data/Complex/Basic.lean: `notation "ℂ" => Complex`, `infixl:72 " ×ℂ " => Set.reProdIm`
    ("ℂ", "Complex"),
    ("×ℂ", "Complex.Set.reProdIm"),
    // Mathlib/Data/Set/Defs.lean: `prefix:100 "𝒫 " => powerset`
    ("𝒫", "Set.powerset"),
    // Mathlib/Data/Set/Operations.lean
    ("f ⁻¹' s", "Set.preimage"),
    ("f '' s", "Set.image"),
    ("s ×ˢ t", "SProd.sprod (Set.prod on sets)"),
    // Mathlib/Order/SetNotation.lean
    ("⋃₀", "Set.sUnion"),
    ("⋂₀", "Set.sInter"),
    ("⋃ i, s i", "Set.iUnion"),
    ("⋂ i, s i", "Set.iInter"),
    ("⨆ i, f i", "iSup"),
    ("⨅ i, f i", "iInf"),
    // Mathlib/Logic/Function/Defs.lean
    ("f ∘' g", "Function.dcomp"),
    ("△(x)", "Function.diag"),
    // Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (global `syntax`, not scoped)
    ("∑ x ∈ s, f x", "Finset.sum"),
    ("∏ x ∈ s, f x", "Finset.prod"),
    ("∑ x, f x", "Finset.sum Finset.univ"),
    ("∏ x, f x", "Finset.prod Finset.univ"),
    // Mathlib/Algebra/Order/Group/Unbundled/Abs.lean: `macro:max atomic("|" noWs) a:term noWs "|"`
    ("|a|", "abs"),
    ("|a|ₘ", "mabs"),
];

pub const NAMESPACES: &[NamespaceNames] = &[
    NamespaceNames {
        namespace: "Real",
        sources: &[
            "Mathlib/Data/Real/Basic.lean",
            "Mathlib/Data/Real/Sqrt.lean",
            "Mathlib/Data/Real/Sign.lean",
            "Mathlib/Data/Complex/Exponential.lean",
            "Mathlib/Data/Complex/Trigonometric.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Inverse.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Arctan.lean",
            "Mathlib/Analysis/SpecialFunctions/Log/Basic.lean",
            "Mathlib/Analysis/SpecialFunctions/Log/Base.lean",
            "Mathlib/Analysis/SpecialFunctions/Pow/Real.lean",
            "Mathlib/Analysis/SpecialFunctions/Arsinh.lean",
            "Mathlib/Data/NNReal/Defs.lean (first 16000 characters: `_root_.Real.toNNReal`)",
        ],
        complete: false,
        names: &[
            "arccos",          // Trigonometric/Inverse.lean
            "arcsin",          // Trigonometric/Inverse.lean
            "arctan",          // Trigonometric/Arctan.lean
            "arsinh",          // Analysis/SpecialFunctions/Arsinh.lean
            "cauchy",          // Data/Real/Basic.lean (structure field)
            "cos",             // Data/Complex/Exponential.lean
            "cosh",            // Data/Complex/Exponential.lean
            "cot",             // Data/Complex/Exponential.lean
            "equivCauchy",     // Data/Real/Basic.lean
            "exp",             // Data/Complex/Exponential.lean
            "log",             // Log/Basic.lean
            "logb",            // Log/Base.lean
            "mk",              // Data/Real/Basic.lean
            "ofCauchy",        // Data/Real/Basic.lean (constructor)
            "ringEquivCauchy", // Data/Real/Basic.lean
            "rpow",            // Pow/Real.lean
            "sign",            // Data/Real/Sign.lean
            "sin",             // Data/Complex/Exponential.lean
            "sinPartialHomeomorph", // Trigonometric/Inverse.lean
            "sinh",            // Data/Complex/Exponential.lean
            "sinhEquiv",       // Analysis/SpecialFunctions/Arsinh.lean
            "sinhHomeomorph",  // Analysis/SpecialFunctions/Arsinh.lean
            "sinhOrderIso",    // Analysis/SpecialFunctions/Arsinh.lean
            "sqrt",            // Data/Real/Sqrt.lean
            "tan",             // Data/Complex/Exponential.lean
            "tanOrderIso",     // Trigonometric/Arctan.lean
            "tanPartialHomeomorph", // Trigonometric/Arctan.lean
            "tanh",            // Data/Complex/Exponential.lean
            "toNNReal",        // Data/NNReal/Defs.lean (`def _root_.Real.toNNReal`)
        ],
        protected: &[
            // Trigonometric/Basic.lean: `protected noncomputable def pi`
            "pi",
        ],
        scoped_notations: &[
            // Trigonometric/Basic.lean
            ("π", "Real.pi"),
            // Data/Complex/Exponential.lean
            ("rexp", "Real.exp"),
        ],
    },
    NamespaceNames {
        namespace: "Nat",
        sources: &[
            "src/Init/Prelude.lean",
            "src/Init/Data/Nat/Basic.lean",
            "src/Init/Data/Nat/Gcd.lean",
            "src/Init/Data/Nat/Log2.lean",
            "src/Init/Data/Nat/Sqrt/Basic.lean",
            "Mathlib/Data/Nat/Factorial/Basic.lean",
            "Mathlib/Data/Nat/Choose/Basic.lean",
            "Mathlib/Data/Nat/Prime/Defs.lean",
            "Mathlib/Data/Nat/Totient.lean",
            "Mathlib/Data/Nat/Log.lean",
            "Mathlib/Data/Nat/Fib/Basic.lean",
            "Mathlib/Algebra/Order/Floor/Defs.lean",
            "Mathlib/Data/Nat/ModEq.lean (definition and notation only, via its indexed excerpt)",
        ],
        complete: false,
        names: &[
            "ModEq",           // Mathlib/Data/Nat/ModEq.lean
            "Prime",           // Mathlib/Data/Nat/Prime/Defs.lean
            "Primes",          // Mathlib/Data/Nat/Prime/Defs.lean
            "all",             // src/Init/Data/Nat/Basic.lean
            "allTR",           // src/Init/Data/Nat/Basic.lean
            "any",             // src/Init/Data/Nat/Basic.lean
            "anyTR",           // src/Init/Data/Nat/Basic.lean
            "ascFactorial",    // Mathlib/Data/Nat/Factorial/Basic.lean
            "beq",             // src/Init/Prelude.lean
            "ble",             // src/Init/Prelude.lean
            "blt",             // src/Init/Data/Nat/Basic.lean
            "ceil",            // Mathlib/Algebra/Order/Floor/Defs.lean
            "choose",          // Mathlib/Data/Nat/Choose/Basic.lean
            "clog",            // Mathlib/Data/Nat/Log.lean
            "decidablePrime'", // Mathlib/Data/Nat/Prime/Defs.lean
            "descFactorial",   // Mathlib/Data/Nat/Factorial/Basic.lean
            "factorial",       // Mathlib/Data/Nat/Factorial/Basic.lean
            "fastFib",         // Mathlib/Data/Nat/Fib/Basic.lean
            "fastFibAux",      // Mathlib/Data/Nat/Fib/Basic.lean
            "fast_choose",     // Mathlib/Data/Nat/Choose/Basic.lean
            "fib",             // Mathlib/Data/Nat/Fib/Basic.lean
            "floor",           // Mathlib/Algebra/Order/Floor/Defs.lean
            "fold",            // src/Init/Data/Nat/Basic.lean
            "foldRev",         // src/Init/Data/Nat/Basic.lean
            "foldTR",          // src/Init/Data/Nat/Basic.lean
            "gcd",             // src/Init/Data/Nat/Gcd.lean
            "log",             // Mathlib/Data/Nat/Log.lean
            "log2",            // src/Init/Data/Nat/Log2.lean
            "logC",            // Mathlib/Data/Nat/Log.lean
            "minFac",          // Mathlib/Data/Nat/Prime/Defs.lean
            "minFacAux",       // Mathlib/Data/Nat/Prime/Defs.lean
            "multichoose",     // Mathlib/Data/Nat/Choose/Basic.lean
            "pred",            // src/Init/Prelude.lean
            "prod_dvd_and_dvd_of_dvd_prod", // src/Init/Data/Nat/Gcd.lean
            "repeat",          // src/Init/Data/Nat/Basic.lean
            "repeatTR",        // src/Init/Data/Nat/Basic.lean
            "sqrt",            // src/Init/Data/Nat/Sqrt/Basic.lean
            "succ",            // src/Init/Prelude.lean (constructor)
            "totient",         // Mathlib/Data/Nat/Totient.lean
            "zero",            // src/Init/Prelude.lean (constructor)
        ],
        protected: &[
            // src/Init/Prelude.lean
            "add", "decEq", "div", "le", "lt", "mod", "modCore", "mul", "pow", "sub",
        ],
        scoped_notations: &[
            // Mathlib/Data/Nat/Factorial/Basic.lean: `scoped notation:10000 n "!" => Nat.factorial n`
            ("!", "Nat.factorial"),
            // Mathlib/Data/Nat/Totient.lean
            ("φ", "Nat.totient"),
        ],
    },
    NamespaceNames {
        namespace: "Int",
        sources: &[
            "src/Init/Data/Int/Basic.lean",
            "src/Init/Data/Int/DivMod/Basic.lean",
            "src/Init/Data/Int/Gcd.lean",
            "Mathlib/Algebra/Order/Floor/Defs.lean",
            "Mathlib/Data/Int/Sqrt.lean",
            "Mathlib/Data/Int/Log.lean",
            "Mathlib/Data/Int/ModEq.lean (definition and notation only, via its indexed excerpt)",
        ],
        complete: false,
        names: &[
            "ModEq",       // Mathlib/Data/Int/ModEq.lean
            "NonNeg",      // src/Init/Data/Int/Basic.lean
            "bdiv",        // src/Init/Data/Int/DivMod/Basic.lean
            "bmod",        // src/Init/Data/Int/DivMod/Basic.lean
            "ceil",        // Mathlib/Algebra/Order/Floor/Defs.lean
            "clog",        // Mathlib/Data/Int/Log.lean
            "clogZPowGi",  // Mathlib/Data/Int/Log.lean
            "ediv",        // src/Init/Data/Int/DivMod/Basic.lean
            "emod",        // src/Init/Data/Int/DivMod/Basic.lean
            "fdiv",        // src/Init/Data/Int/DivMod/Basic.lean
            "floor",       // Mathlib/Algebra/Order/Floor/Defs.lean
            "fmod",        // src/Init/Data/Int/DivMod/Basic.lean
            "fract",       // Mathlib/Algebra/Order/Floor/Defs.lean
            "gcd",         // src/Init/Data/Int/Gcd.lean
            "lcm",         // src/Init/Data/Int/Gcd.lean
            "log",         // Mathlib/Data/Int/Log.lean
            "natAbs",      // src/Init/Data/Int/Basic.lean
            "negOfNat",    // src/Init/Data/Int/Basic.lean
            "negSucc",     // src/Init/Data/Int/Basic.lean (constructor)
            "ofNat",       // src/Init/Data/Int/Basic.lean (constructor)
            "sign",        // src/Init/Data/Int/Basic.lean
            "sqrt",        // Mathlib/Data/Int/Sqrt.lean
            "subNatNat",   // src/Init/Data/Int/Basic.lean
            "tdiv",        // src/Init/Data/Int/DivMod/Basic.lean
            "tmod",        // src/Init/Data/Int/DivMod/Basic.lean
            "toNat",       // src/Init/Data/Int/Basic.lean
            "toNat'",      // src/Init/Data/Int/Basic.lean
            "zpowLogGi",   // Mathlib/Data/Int/Log.lean
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
        namespace: "Complex",
        sources: &[
            "Mathlib/Data/Complex/Basic.lean",
            "Mathlib/Data/Complex/Abs.lean",
            "Mathlib/Data/Complex/Exponential.lean (first 16000 characters)",
            "Mathlib/Data/Complex/Trigonometric.lean (first 16000 characters)",
            "Mathlib/Analysis/SpecialFunctions/Complex/Arg.lean (the `arg` definition, via its indexed excerpt)",
            "Mathlib/Analysis/SpecialFunctions/Complex/Log.lean (the `log` definition, via its indexed excerpt)",
            "Mathlib/Analysis/SpecialFunctions/Pow/Complex.lean (the `cpow` definition, via its indexed excerpt)",
        ],
        complete: false,
        names: &[
            "I",               // Data/Complex/Basic.lean
            "abs",             // Data/Complex/Abs.lean (`def _root_.Complex.abs`; newer Mathlib deprecates it for `‖z‖`)
            "arg",             // Analysis/SpecialFunctions/Complex/Arg.lean
            "cauSeqAbs",       // Data/Complex/Abs.lean
            "cauSeqConj",      // Data/Complex/Abs.lean
            "cauSeqIm",        // Data/Complex/Abs.lean
            "cauSeqRe",        // Data/Complex/Abs.lean
            "cos",             // Data/Complex/Exponential.lean
            "cosh",            // Data/Complex/Exponential.lean
            "cot",             // Data/Complex/Exponential.lean
            "cpow",            // Analysis/SpecialFunctions/Pow/Complex.lean
            "equivRealProd",   // Data/Complex/Basic.lean
            "exp",             // Data/Complex/Exponential.lean
            "exp'",            // Data/Complex/Exponential.lean
            "expMonoidHom",    // Data/Complex/Exponential.lean
            "im",              // Data/Complex/Basic.lean (structure field)
            "imAddGroupHom",   // Data/Complex/Basic.lean
            "limAux",          // Data/Complex/Abs.lean
            "log",             // Analysis/SpecialFunctions/Complex/Log.lean
            "mk",              // Data/Complex/Basic.lean (constructor)
            "normSq",          // Data/Complex/Basic.lean
            "ofReal",          // Data/Complex/Basic.lean
            "ofReal'",         // Data/Complex/Basic.lean (the coercion in the version read)
            "re",              // Data/Complex/Basic.lean (structure field)
            "reAddGroupHom",   // Data/Complex/Basic.lean
            "sin",             // Data/Complex/Exponential.lean
            "sinh",            // Data/Complex/Exponential.lean
            "tan",             // Data/Complex/Exponential.lean
            "tanh",            // Data/Complex/Exponential.lean
        ],
        protected: &[],
        scoped_notations: &[
            // Data/Complex/Exponential.lean
            ("cexp", "Complex.exp"),
        ],
    },
    NamespaceNames {
        namespace: "NNReal",
        sources: &[
            "Mathlib/Data/NNReal/Defs.lean (first 16000 characters)",
            "Mathlib/Data/Real/Sqrt.lean",
            "Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean (first 16000 characters)",
        ],
        complete: false,
        names: &[
            "gi",                 // Data/NNReal/Defs.lean
            "orderIsoIccZeroCoe", // Data/NNReal/Defs.lean
            "pi",                 // Analysis/SpecialFunctions/Trigonometric/Basic.lean (not protected here)
            "sqrt",               // Data/Real/Sqrt.lean
            "sqrtHom",            // Data/Real/Sqrt.lean
            "toReal",             // Data/NNReal/Defs.lean
            "toRealHom",          // Data/NNReal/Defs.lean
        ],
        protected: &[],
        scoped_notations: &[
            // Data/NNReal/Defs.lean: `scoped notation "ℝ≥0" => NNReal`
            ("ℝ≥0", "NNReal"),
        ],
    },
    NamespaceNames {
        // Opening `ComplexConjugate` adds no name readings, only the `conj` notation.
        namespace: "ComplexConjugate",
        sources: &["Mathlib/Data/Complex/Basic.lean (docstring of the `StarRing ℂ` instance)"],
        complete: false,
        names: &[],
        protected: &[],
        scoped_notations: &[("conj", "starRingEnd")],
    },
    NamespaceNames {
        // Opening `goldenRatio` adds only the notations `φ` and `ψ`.
        namespace: "goldenRatio",
        sources: &["Mathlib/Data/Real/GoldenRatio.lean (older version: root `goldenRatio`)"],
        complete: true,
        names: &[],
        protected: &[],
        scoped_notations: &[("φ", "goldenRatio"), ("ψ", "goldenConj")],
    },
    NamespaceNames {
        namespace: "Set",
        sources: &[
            "Mathlib/Data/Set/Defs.lean",
            "Mathlib/Data/Set/Operations.lean",
            "Mathlib/Order/SetNotation.lean",
            "Mathlib/Order/Interval/Set/Defs.lean",
            "Mathlib/Data/Set/Finite/Defs.lean",
        ],
        complete: false,
        names: &[
            "BijOn",              // Data/Set/Operations.lean
            "EqOn",               // Data/Set/Operations.lean
            "Icc",                // Order/Interval/Set/Defs.lean
            "Ici",                // Order/Interval/Set/Defs.lean (generated from `Iic` by `to_dual`)
            "Ico",                // Order/Interval/Set/Defs.lean
            "Iic",                // Order/Interval/Set/Defs.lean
            "Iio",                // Order/Interval/Set/Defs.lean
            "InjOn",              // Data/Set/Operations.lean
            "InvOn",              // Data/Set/Operations.lean
            "Ioc",                // Order/Interval/Set/Defs.lean
            "Ioi",                // Order/Interval/Set/Defs.lean (generated from `Iio` by `to_dual`)
            "Ioo",                // Order/Interval/Set/Defs.lean
            "LeftInvOn",          // Data/Set/Operations.lean
            "MapsTo",             // Data/Set/Operations.lean
            "OrdConnected",       // Order/Interval/Set/Defs.lean
            "RightInvOn",         // Data/Set/Operations.lean (abbrev)
            "SurjOn",             // Data/Set/Operations.lean
            "center",        // Algebra/Group/Center.lean (`#align set.center`, via indexed excerpts)
            "centralizer",   // Algebra/Group/Centralizer.lean (`#align set.centralizer`, via indexed excerpts)
            "diagonal",           // Data/Set/Operations.lean
            "graphOn",            // Data/Set/Operations.lean
            "iInter",             // Order/SetNotation.lean
            "iUnion",             // Order/SetNotation.lean
            "image",              // Data/Set/Defs.lean
            "image2",             // Data/Set/Operations.lean
            "imageFactorization", // Data/Set/Operations.lean
            "kernImage",          // Data/Set/Operations.lean
            "offDiag",            // Data/Set/Operations.lean
            "pi",                 // Data/Set/Operations.lean
            "powerset",           // Data/Set/Defs.lean
            "preimage",           // Data/Set/Operations.lean
            "prod",               // Data/Set/Operations.lean
            "range",              // Data/Set/Operations.lean
            "rangeFactorization", // Data/Set/Operations.lean
            "rangeSplitting",     // Data/Set/Operations.lean
            "restrictPreimage",   // Data/Set/Operations.lean
            "sInter",             // Order/SetNotation.lean
            "sUnion",             // Order/SetNotation.lean
            "seq",                // Data/Set/Operations.lean
            "toFinset",      // Data/Fintype/Basic.lean (`#align set.to_finset`)
            "univ",               // Data/Set/Defs.lean
        ],
        protected: &[
            // Data/Set/Defs.lean
            "Mem", "Nonempty", "Subset", "compl", "diff", "insert", "inter", "singleton", "union",
            // Data/Set/Finite/Defs.lean
            "Finite", "Infinite",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Function",
        sources: &[
            "Mathlib/Logic/Function/Defs.lean (current version and an older version that still held `Injective`)",
        ],
        complete: false,
        names: &[
            "Bijective",       // Logic/Function/Defs.lean
            "HasLeftInverse",  // Logic/Function/Defs.lean (older version; now in Lean core)
            "HasRightInverse", // Logic/Function/Defs.lean (older version; now in Lean core)
            "Injective",       // Logic/Function/Defs.lean (older version; now in Lean core)
            "IsFixedPt",       // Logic/Function/Defs.lean
            "LeftInverse",     // Logic/Function/Defs.lean (older version; now in Lean core)
            "RightInverse",    // Logic/Function/Defs.lean (older version; now in Lean core)
            "Surjective",      // Logic/Function/Defs.lean (older version; now in Lean core)
            "bicompl",         // Logic/Function/Defs.lean
            "bicompr",         // Logic/Function/Defs.lean
            "dcomp",           // Logic/Function/Defs.lean
            "onFun",           // Logic/Function/Defs.lean (abbrev)
            "swap",            // Logic/Function/Defs.lean (abbrev)
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
        namespace: "Finset",
        sources: &[
            "Mathlib/Data/Finset/Defs.lean",
            "Mathlib/Data/Finset/Range.lean",
            "Mathlib/Data/Finset/Filter.lean",
            "Mathlib/Data/Finset/Card.lean (the `card` definition and `#` notation, via indexed excerpts)",
            "Mathlib/Data/Fintype/Defs.lean",
            "Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (first 16000 characters)",
        ],
        complete: false,
        names: &[
            "card",   // Data/Finset/Card.lean
            "coeEmb", // Data/Finset/Defs.lean
            "filter", // Data/Finset/Filter.lean
            "mk",     // Data/Finset/Defs.lean (constructor)
            "nodup",  // Data/Finset/Defs.lean (structure field)
            "range",  // Data/Finset/Range.lean
            "toSet",  // Data/Finset/Defs.lean (deprecated abbrev)
            "univ",   // Data/Fintype/Defs.lean
            "val",    // Data/Finset/Defs.lean (structure field)
        ],
        protected: &[
            // Algebra/BigOperators/Group/Finset/Defs.lean (`protected def prod`, additive copy `sum`)
            "prod", "sum",
        ],
        scoped_notations: &[
            // Data/Finset/Card.lean: `scoped prefix:arg "#" => Finset.card`
            ("#", "Finset.card"),
        ],
    },
    NamespaceNames {
        namespace: "Fintype",
        sources: &[
            "Mathlib/Data/Fintype/Defs.lean",
            "Mathlib/Data/Fintype/Card.lean (the `card` definition, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "card",     // Data/Fintype/Card.lean
            "complete", // Data/Fintype/Defs.lean (class field)
            "elems",    // Data/Fintype/Defs.lean (class field)
            "ofFinset", // Data/Fintype/Defs.lean
        ],
        protected: &[
            // Data/Fintype/Defs.lean
            "subtype",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `∑ x ∈ s, f x` / `∏ x ∈ s, f x` are declared with plain `syntax` inside
        // `namespace BigOperators`, so they are global: `open BigOperators` activates nothing and
        // its names are macro helpers that no statement writes.
        namespace: "BigOperators",
        sources: &["Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean (first 16000 characters)"],
        complete: false,
        names: &[
            "bigOpBindersPattern", // macro helper
            "bigOpBindersProd",    // macro helper
            "delabFinsetProd",     // delaborator
            "delabFinsetSum",      // delaborator
            "processBigOpBinder",  // macro helper
            "processBigOpBinders", // macro helper
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Polynomial",
        sources: &[
            "Mathlib/Algebra/Polynomial/Basic.lean (first 32000 characters)",
            "Mathlib/Algebra/Polynomial/Degree/Defs.lean (first 16000 characters)",
            "Mathlib/Algebra/Polynomial/Eval/Defs.lean (the `eval` and `IsRoot` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Polynomial/Roots.lean (the `roots` definition, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "C",                   // Algebra/Polynomial/Basic.lean
            "IsRoot",              // Algebra/Polynomial/Eval/Defs.lean
            "Monic",               // Algebra/Polynomial/Degree/Defs.lean
            "Splits",        // FieldTheory/Splits (older extract, `#align polynomial.splits`)
            "X",                   // Algebra/Polynomial/Basic.lean
            "aeval",         // Algebra/Polynomial/AlgebraMap.lean (`#align polynomial.aeval`)
            "coeff",               // Algebra/Polynomial/Basic.lean
            "comp",          // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "compRingHom",   // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "degree",              // Algebra/Polynomial/Degree/Defs.lean
            "derivative",    // Algebra/Polynomial/Derivative.lean (`#align polynomial.derivative`)
            "eval",                // Algebra/Polynomial/Eval/Defs.lean
            "evalRingHom",   // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "eval₂",               // Algebra/Polynomial/Eval/Defs.lean (used by `eval`'s definition)
            "eval₂AddMonoidHom", // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "eval₂RingHom",  // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "eval₂RingHom'", // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "leadingCoeff",        // Algebra/Polynomial/Degree/Defs.lean
            "leval",         // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "map",           // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "mapEquiv",      // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "mapRingHom",    // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "monomial",            // Algebra/Polynomial/Basic.lean
            "natDegree",           // Algebra/Polynomial/Degree/Defs.lean
            "nextCoeff",           // Algebra/Polynomial/Degree/Defs.lean
            "ofFinsupp",           // Algebra/Polynomial/Basic.lean (constructor)
            "piEquiv",       // Algebra/Polynomial/Eval (older declaration extract, `#align polynomial.*`)
            "rootOfSplits'", // FieldTheory/Splits (older extract, `#align polynomial.root_of_splits'`)
            "roots",               // Algebra/Polynomial/Roots.lean
            "sum",                 // Algebra/Polynomial/Basic.lean (not protected)
            "support",             // Algebra/Polynomial/Basic.lean
            "toFinsupp",           // Algebra/Polynomial/Basic.lean (structure field)
            "toFinsuppIso",        // Algebra/Polynomial/Basic.lean
            "toFinsuppIsoLinear",  // Algebra/Polynomial/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[
            // Algebra/Polynomial/Basic.lean: `scoped[Polynomial] notation:9000 R "[X]" => Polynomial R`
            ("R[X]", "Polynomial"),
        ],
    },
    NamespaceNames {
        // Root-level declarations statements commonly write (not an exhaustive list of the root
        // namespace). Under `open Nat`, `Prime`, `gcd` and `lcm` have two readings each (the root
        // one and `Nat.Prime`/`Nat.gcd`/`Nat.lcm`), so they are ambiguous.
        namespace: "",
        sources: &[
            "Mathlib/Data/Real/Basic.lean (`Real`)",
            "Mathlib/Data/Complex/Basic.lean (`Complex`)",
            "Mathlib/Data/Real/Irrational.lean (`Irrational`)",
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
        ],
        complete: false,
        names: &[
            "AccPt",         // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "AddSubgroup",   // older GroupTheory/Subgroup/Basic.lean extract (structure)
            "BaireSpace",    // Topology/Defs/Basic.lean (class)
            "Cardinal",      // SetTheory/Cardinal/Basic.lean (def)
            "ClusterPt",     // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "Complex",      // Data/Complex/Basic.lean
            "Continuous",    // Topology/Defs/Basic.lean (structure)
            "ContinuousAt",  // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "ContinuousOn",  // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "ContinuousWithinAt", // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "Dense",         // Topology/Defs/Basic.lean
            "DenseRange",    // Topology/Defs/Basic.lean
            "Dist",          // Topology/MetricSpace/Pseudo/Defs.lean (class)
            "Equiv",         // Logic/Equiv/Defs.lean (structure; `≃` is its global infix)
            "Even",         // Algebra/Group/Even.lean (additive copy of `IsSquare`)
            "Filter",        // Order/Filter/Defs.lean (structure)
            "Finset",       // Data/Finset/Defs.lean
            "Finsupp",       // Data/Finsupp/Defs.lean (structure; `→₀` is its global infix)
            "Fintype",      // Data/Fintype/Defs.lean
            "FloorRing",    // Algebra/Order/Floor/Defs.lean
            "FloorSemiring", // Algebra/Order/Floor/Defs.lean
            "GaussianInt",   // NumberTheory/Zsqrtd/GaussianInt.lean (abbrev for `Zsqrtd (-1)`)
            "Ideal",         // RingTheory/Ideal/Defs.lean (abbrev)
            "InfSet",       // Order/SetNotation.lean
            "Inseparable",   // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "Irrational",   // Data/Real/Irrational.lean
            "Irreducible",   // Algebra/Associated (structure, `#align irreducible`)
            "IsAddUnit",    // Algebra/Group/Units/Defs.lean (additive copy of `IsUnit`)
            "IsClopen",      // Topology/Defs/Basic.lean
            "IsClosed",      // Topology/Defs/Basic.lean (class)
            "IsClosedMap",   // Topology/Defs/Basic.lean
            "IsCompact",     // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "IsOfFinOrder",  // GroupTheory/OrderOfElement.lean (`#align is_of_fin_order`)
            "IsOpen",        // Topology/Defs/Basic.lean
            "IsOpenMap",     // Topology/Defs/Basic.lean
            "IsPrincipalIdealRing", // RingTheory/Ideal/Span.lean (class)
            "IsSquare",     // Algebra/Group/Even.lean
            "IsUnit",       // Algebra/Group/Units/Defs.lean
            "MapClusterPt",  // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "MvPolynomial",  // RingTheory/MvPolynomial/Basic.lean (def)
            "NNDist",        // Topology/MetricSpace/Pseudo/Defs.lean (class)
            "NNNorm",        // Analysis/Normed/Group/Basic.lean (class)
            "NNReal",       // Data/NNReal/Defs.lean
            "Norm",          // Analysis/Normed/Group/Basic.lean (class)
            "NormalizerCondition", // older GroupTheory/Subgroup/Basic.lean extract (`def _root_.NormalizerCondition`)
            "Odd",          // Algebra/Ring/Parity.lean
            "Ordinal",       // SetTheory/Ordinal/Basic.lean (older extract, `#align ordinal`)
            "Polynomial",   // Algebra/Polynomial/Basic.lean
            "Prime",        // Algebra/Prime/Defs.lean
            "PseudoMetricSpace", // Topology/MetricSpace/Pseudo/Defs.lean (class)
            "Real",         // Data/Real/Basic.lean
            "SeparationQuotient", // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "Set",          // Data/Set/Defs.lean
            "Specializes",   // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "Subgroup",      // older GroupTheory/Subgroup/Basic.lean extract (structure)
            "Subring",       // RingTheory/Subring/Basic.lean (structure)
            "SupSet",       // Order/SetNotation.lean
            "Sylow",         // GroupTheory/Sylow.lean (structure, `#align sylow`)
            "TopologicalSpace", // Topology/Defs/Basic.lean (class)
            "WellOrder",     // SetTheory/Ordinal/Basic.lean (older extract, structure)
            "ZMod",         // Data/ZMod/Defs.lean
            "Zsqrtd",        // NumberTheory/Zsqrtd/Basic.lean (structure)
            "abs",          // Algebra/Order/Group/Unbundled/Abs.lean (additive copy of `mabs`)
            "addOrderOf",    // GroupTheory/OrderOfElement.lean (additive copy of `orderOf`)
            "closure",       // Topology/Defs/Basic.lean (topological closure)
            "deriv",        // Analysis/Calculus/Deriv/Basic.lean
            "derivWithin",  // Analysis/Calculus/Deriv/Basic.lean
            "dist",          // Topology/MetricSpace/Pseudo/Defs.lean (`export Dist (dist)`)
            "frontier",      // Topology/Defs/Basic.lean
            "gcd",          // Algebra/GCDMonoid/Basic.lean (`export GCDMonoid`)
            "goldenConj",   // Data/Real/GoldenRatio.lean (older version)
            "goldenRatio",  // Data/Real/GoldenRatio.lean (older version)
            "iInf",         // Order/SetNotation.lean
            "iSup",         // Order/SetNotation.lean
            "inseparableSetoid", // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "interior",      // Topology/Defs/Basic.lean
            "lcm",          // Algebra/GCDMonoid/Basic.lean (`export GCDMonoid`)
            "lim",           // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "limUnder",      // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "mabs",         // Algebra/Order/Group/Unbundled/Abs.lean
            "nhds",         // Topology/Defs/Filter.lean (`irreducible_def`)
            "nhdsSet",       // Topology/Defs/Filter.lean (declaration extract, `#align`)
            "nhdsWithin",   // Topology/Defs/Filter.lean
            "nndist",        // Topology/MetricSpace/Pseudo/Defs.lean (`export NNDist (nndist)`)
            "nnnorm",        // Analysis/Normed/Group/Basic.lean (`export NNNorm (nnnorm)`)
            "norm",          // Analysis/Normed/Group/Basic.lean (`export Norm (norm)`)
            "orderOf",       // GroupTheory/OrderOfElement.lean (`#align order_of orderOf`)
            "sInf",         // Order/SetNotation.lean (`export InfSet (sInf)`)
            "sSup",         // Order/SetNotation.lean (`export SupSet (sSup)`)
            "setOf",        // Data/Set/Defs.lean
            "specializationPreorder", // Topology/Defs/Filter.lean (declaration extract, `#align`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "ZMod",
        sources: &[
            "Mathlib/Data/ZMod/Defs.lean (root `ZMod`, via indexed excerpts)",
            "Mathlib/Data/ZMod/Basic.lean (the `val` definition and its docstring, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "val",         // Data/ZMod/Basic.lean
            "valMinAbs",   // Data/ZMod/Basic.lean (named in the docstring of `val`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Filter",
        sources: &["Mathlib/Order/Filter/Defs.lean (the `Tendsto` and `comap` definitions, via indexed excerpts)"],
        complete: false,
        names: &[
            "EventuallyEq",  // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "EventuallyLE",  // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "NeBot",         // older Order/Filter/Basic.lean declaration extract (`#align filter.*`) (class)
            "Tendsto", // Order/Filter/Defs.lean
            "atBot",         // Order/Filter/AtTopBot (`#align filter.at_bot`)
            "atTop",         // Order/Filter/AtTopBot (`#align filter.at_top`)
            "bind",          // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "coclosedCompact", // Topology/Defs/Filter.lean (`def Filter.coclosedCompact`)
            "cocompact",     // Topology/Defs/Filter.lean (`def Filter.cocompact`)
            "comap",   // Order/Filter/Defs.lean
            "copy",          // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "generate",      // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "giGenerate",    // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "join",          // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "kernMap",       // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "map",           // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "mkOfClosure",   // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "principal",     // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "seq",           // older Order/Filter/Basic.lean declaration extract (`#align filter.*`)
            "sets",          // older Order/Filter/Basic.lean declaration extract (`#align filter.*`) (structure field)
        ],
        protected: &[
            // Order/Filter/Defs.lean (`protected def Eventually`; `∀ᶠ x in f, p x` is its global notation)
            "Eventually", "monad",
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
        complete: false,
        names: &[],
        protected: &[],
        scoped_notations: &[
            ("𝓝", "nhds"),
            ("𝓝[s] x", "nhdsWithin"),
            ("𝓝[≠] x", "nhdsWithin x {x}ᶜ"),
            ("𝓝[≥] x", "nhdsWithin x (Set.Ici x)"),
        ],
    },
    NamespaceNames {
        namespace: "ArithmeticFunction",
        sources: &["Mathlib/NumberTheory/ArithmeticFunction.lean (the `sigma` definition and notation, via indexed excerpts)"],
        complete: false,
        names: &[
            "sigma", // NumberTheory/ArithmeticFunction.lean
        ],
        protected: &[],
        scoped_notations: &[
            // also declared as `scoped[ArithmeticFunction.sigma] notation "σ"`
            ("σ", "ArithmeticFunction.sigma"),
        ],
    },
    NamespaceNames {
        // Defs such as `Rat.divInt`, `Rat.floor` were not checked.
        namespace: "Rat",
        sources: &[
            "src/Init/Data/Rat/Basic.lean (the `Rat` structure, via indexed excerpts)",
            "Mathlib/Data/Rat/Sqrt.lean (`Rat.sqrt`, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "den",     // src/Init/Data/Rat/Basic.lean (structure field)
            "den_nz",  // src/Init/Data/Rat/Basic.lean (structure field)
            "mk'",     // src/Init/Data/Rat/Basic.lean (constructor)
            "num",     // src/Init/Data/Rat/Basic.lean (structure field)
            "reduced", // src/Init/Data/Rat/Basic.lean (structure field)
            "sqrt",    // Mathlib/Data/Rat/Sqrt.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `Subgroup` and `AddSubgroup` are root structures. `IsComplement` (GroupTheory/Complement)
        // was not read. `closure`, `center` and `centralizer` collide with root `closure`
        // (topological) and `Set.center`/`Set.centralizer` under `open Subgroup Set`.
        namespace: "Subgroup",
        sources: &[
            "Mathlib/Algebra/Group/Subgroup/Lattice.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean (whole extract, 13740 characters)",
            "Mathlib/GroupTheory/Index.lean (the `index`/`relindex` definitions, via indexed excerpts)",
            "Mathlib/Algebra/Group/Subgroup/ZPowers.lean (an older version's `zpowers` definition, via an indexed excerpt)",
        ],
        complete: false,
        names: &[
            "Characteristic",         // older GroupTheory/Subgroup/Basic.lean (structure)
            "IsCommutative",          // older GroupTheory/Subgroup/Basic.lean (structure)
            "IsComplement",  // GroupTheory/Complement.lean (`#align subgroup.is_complement`, via indexed excerpts)
            "IsComplement'", // GroupTheory/Complement.lean (abbrev)
            "Normal",                 // older GroupTheory/Subgroup/Basic.lean (structure, made a class)
            "center",                 // older GroupTheory/Subgroup/Basic.lean (now GroupTheory/Subgroup/Center.lean)
            "centralizer",            // older GroupTheory/Subgroup/Basic.lean (now GroupTheory/Subgroup/Centralizer.lean)
            "closure",                // Algebra/Group/Subgroup/Lattice.lean
            "closureCommGroupOfComm", // older GroupTheory/Subgroup/Basic.lean
            "comap",                  // older GroupTheory/Subgroup/Basic.lean
            "copy",                   // older GroupTheory/Subgroup/Basic.lean
            "equivMapOfInjective",    // older GroupTheory/Subgroup/Basic.lean
            "inclusion",              // older GroupTheory/Subgroup/Basic.lean
            "index",                  // GroupTheory/Index.lean (noncomputable def)
            "map",                    // older GroupTheory/Subgroup/Basic.lean
            "normalClosure",          // older GroupTheory/Subgroup/Basic.lean
            "normalCore",             // older GroupTheory/Subgroup/Basic.lean
            "normalizer",             // older GroupTheory/Subgroup/Basic.lean
            "ofDiv",                  // older GroupTheory/Subgroup/Basic.lean
            "pi",                     // older GroupTheory/Subgroup/Basic.lean
            "prod",                   // older GroupTheory/Subgroup/Basic.lean
            "prodEquiv",              // older GroupTheory/Subgroup/Basic.lean
            "relindex",               // GroupTheory/Index.lean (named in its docstrings/excerpts)
            "setNormalizer",          // older GroupTheory/Subgroup/Basic.lean
            "subgroupOf",             // older GroupTheory/Subgroup/Basic.lean
            "subgroupOfEquivOfLe",    // older GroupTheory/Subgroup/Basic.lean
            "subtype",                // older GroupTheory/Subgroup/Basic.lean
            "toAddSubgroup",          // Algebra/Group/Subgroup/Lattice.lean (`def Subgroup.toAddSubgroup`)
            "toAddSubgroup'",         // Algebra/Group/Subgroup/Lattice.lean (abbrev)
            "topEquiv",               // Algebra/Group/Subgroup/Lattice.lean
            "zpowers",                // Algebra/Group/Subgroup/ZPowers.lean (older version)
        ],
        protected: &[
            // Algebra/Group/Subgroup/Lattice.lean
            "gi",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `Ideal` is a root abbrev (`Submodule R R`), so `Submodule` names also apply by dot
        // notation but not by `open Ideal`. `Ideal.Quotient` is a namespace (`Ideal.Quotient.mk`);
        // whether a declaration named `Ideal.Quotient` exists was not checked.
        namespace: "Ideal",
        sources: &[
            "Mathlib/RingTheory/Ideal/Defs.lean",
            "Mathlib/RingTheory/Ideal/Span.lean",
            "Mathlib/RingTheory/Ideal/Prime.lean",
            "Mathlib/RingTheory/Ideal/Maximal.lean (the `IsMaximal` class, via indexed excerpts)",
            "Mathlib/RingTheory/Jacobson (the `jacobson` definition, via indexed excerpts)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/RingTheory/Ideal/Operations.lean and Maps (whole extract, 6035 characters)",
        ],
        complete: false,
        names: &[
            "IsMaximal",                  // RingTheory/Ideal/Maximal.lean (class)
            "IsPrimary",                  // older extract (`#align ideal.is_primary`)
            "IsPrime",                    // RingTheory/Ideal/Prime.lean (class)
            "IsRadical",                  // older extract (`#align ideal.is_radical`)
            "basisSpanSingleton",         // older extract
            "comap",                      // older extract (`#align ideal.comap`)
            "finsuppTotal",               // older extract
            "giMapComap",                 // older extract
            "iInfPrimeCompl",             // RingTheory/Ideal/Prime.lean
            "jacobson",                   // RingTheory/Jacobson (`#align ideal.jacobson`)
            "map",                        // older extract (`#align ideal.map`)
            "mapHom",                     // older extract
            "ofRel",                      // RingTheory/Ideal/Span.lean
            "orderEmbeddingOfSurjective", // older extract
            "primeCompl",                 // RingTheory/Ideal/Prime.lean
            "radical",                    // older extract (`#align ideal.radical`)
            "relIsoOfBijective",          // older extract
            "relIsoOfSurjective",         // older extract
            "span",                       // RingTheory/Ideal/Span.lean
        ],
        protected: &[],
        scoped_notations: &[
            // RingTheory/Ideal/Span.lean: `scoped syntax "⟪" term,* (":" term)? "⟫"`, expanding to
            // `Ideal.span {x₁, …, xₙ}`
            ("⟪x₁, …, xₙ⟫", "Ideal.span"),
        ],
    },
    NamespaceNames {
        // The `R ∙ x` notation for `span R {x}` is a plain (global) `notation` inside
        // `namespace Submodule`, so it needs no `open`.
        namespace: "Submodule",
        sources: &[
            "Mathlib/LinearAlgebra/Span/Defs.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/RingTheory/Ideal/Operations.lean (whole extract, 6035 characters)",
            "an indexed declaration extract (with `#align` lines) of older Mathlib/Algebra/Module/Submodule/Map.lean (whole extract, 4781 characters)",
        ],
        complete: false,
        names: &[
            "IsPrincipal", // LinearAlgebra/Span/Defs.lean (class)
            "annihilator", // older extract (abbrev, `#align submodule.annihilator`)
            "colon",       // older extract (`#align submodule.colon`)
            "comap",         // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "comapSubtypeEquivOfLe", // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "compatibleMaps", // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "equivMapOfInjective", // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "gciMapComap",   // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "giMapComap",    // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "map",           // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "orderIsoMapComap", // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "orderIsoMapComapOfBijective", // older Mathlib/Algebra/Module/Submodule/Map.lean declaration extract (`#align submodule.*`)
            "span",        // LinearAlgebra/Span/Defs.lean
        ],
        protected: &[
            // LinearAlgebra/Span/Defs.lean
            "gi",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `IsOpen`, `IsClosed`, `closure`, `interior`, `frontier`, `Continuous` are root names;
        // the class field `TopologicalSpace.IsOpen` is protected, so `open TopologicalSpace` adds
        // no second reading of `IsOpen`.
        namespace: "TopologicalSpace",
        sources: &[
            "Mathlib/Topology/Defs/Basic.lean",
            "Mathlib/Topology/Order.lean (`GenerateOpen`, `generateFrom`, `mkOfNhds`, via indexed excerpts)",
            "Mathlib/Topology/Sets/Opens.lean and Sets/Closeds.lean (`Opens`, `Closeds`, via indexed excerpts)",
            "Mathlib/Topology/Bases.lean (first 16000 characters)",
        ],
        complete: false,
        names: &[
            "Closeds",            // Topology/Sets/Closeds.lean (structure)
            "FirstCountableTopology", // Topology/Bases.lean (module doc: `TopologicalSpace.`-prefixed in its main definitions/results) (class)
            "GenerateOpen",       // Topology/Order.lean (inductive)
            "IsSeparable",   // Topology/Bases.lean (module doc: `TopologicalSpace.`-prefixed in its main definitions/results)
            "IsTopologicalBasis", // Topology/Bases.lean (structure)
            "Opens",              // Topology/Sets/Opens.lean (structure)
            "SecondCountableTopology", // Topology/Bases.lean (module doc: `TopologicalSpace.`-prefixed in its main definitions/results) (class)
            "SeparableSpace", // Topology/Bases.lean (module doc: `TopologicalSpace.`-prefixed in its main definitions/results) (class)
            "generateFrom",       // Topology/Order.lean
            "mkOfNhds",           // Topology/Order.lean
        ],
        protected: &[
            // Topology/Defs/Basic.lean (class fields)
            "IsOpen", "isOpen_inter", "isOpen_sUnion", "isOpen_univ",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `dist` and `nndist` are root names (`export Dist (dist)`, `export NNDist (nndist)`);
        // `EMetric.diam` is a different namespace.
        namespace: "Metric",
        sources: &[
            "Mathlib/Topology/MetricSpace/Pseudo/Defs.lean (first 16000 characters)",
            "the `Metric.diam` definition (`ENNReal.toReal (EMetric.diam s)`, via an indexed excerpt)",
        ],
        complete: false,
        names: &[
            "ball",       // Topology/MetricSpace/Pseudo/Defs.lean
            "closedBall", // Topology/MetricSpace/Pseudo/Defs.lean
            "diam",       // indexed excerpt (noncomputable def)
            "sphere",     // Topology/MetricSpace/Pseudo/Defs.lean (module doc; definition follows the part read)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `ℤ√d` is a plain (global) `prefix` notation for `Zsqrtd d`. Under `open Zsqrtd`, `norm`
        // also has the root reading (`Norm.norm`, not surveyed here).
        namespace: "Zsqrtd",
        sources: &["Mathlib/NumberTheory/Zsqrtd/Basic.lean (first 16000 characters)"],
        complete: false,
        names: &[
            "Nonnegg",       // NumberTheory/Zsqrtd/Basic.lean
            "SqLe",          // NumberTheory/Zsqrtd/Basic.lean
            "im",            // NumberTheory/Zsqrtd/Basic.lean (structure field)
            "mk",            // NumberTheory/Zsqrtd/Basic.lean (constructor)
            "norm",          // NumberTheory/Zsqrtd/Basic.lean
            "normMonoidHom", // NumberTheory/Zsqrtd/Basic.lean
            "ofInt",         // NumberTheory/Zsqrtd/Basic.lean
            "re",            // NumberTheory/Zsqrtd/Basic.lean (structure field)
            "sqrtd",         // NumberTheory/Zsqrtd/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Bornology",
        sources: &[
            "Mathlib/Topology/Bornology/Basic.lean (the `IsCobounded`/`IsBounded` definitions, via indexed excerpts)",
            "Mathlib/Topology/MetricSpace/Pseudo/Defs.lean (first 16000 characters: `Bornology.ofDist`, uses of `Bornology.cobounded`, `Bornology.ofBounded`)",
        ],
        complete: false,
        names: &[
            "IsBounded",   // Topology/Bornology/Basic.lean
            "IsCobounded", // Topology/Bornology/Basic.lean
            "cobounded",   // Topology/Bornology/Basic.lean (written `Bornology.cobounded α` in Pseudo/Defs.lean)
            "ofBounded",   // Topology/Bornology/Basic.lean (used by `Bornology.ofDist`)
            "ofDist",      // Topology/MetricSpace/Pseudo/Defs.lean (abbrev)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Module",
        sources: &[
            "Mathlib/LinearAlgebra/Dimension/Finrank.lean (the `finrank` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Dimension/Basic.lean (the `Module.rank` definition, via indexed excerpts)",
            "an indexed declaration extract of older Mathlib/RingTheory/Ideal/Operations.lean (`def _root_.Module.annihilator`)",
        ],
        complete: false,
        names: &[
            "annihilator", // RingTheory/Ideal/Operations.lean (older extract)
            "finrank",     // LinearAlgebra/Dimension/Finrank.lean (noncomputable def)
        ],
        protected: &[
            // LinearAlgebra/Dimension/Basic.lean (`protected irreducible_def Module.rank`, protected
            // "to avoid conflicts with `_root_.rank`")
            "rank",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `LinearMap.det` is protected: under `open LinearMap`, `det` does not reach it (but
        // `Matrix.det` under `open Matrix` does).
        namespace: "LinearMap",
        sources: &[
            "Mathlib/LinearAlgebra/Determinant.lean (the `det` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Trace.lean (the `trace` definition, via indexed excerpts)",
            "qualified uses `LinearMap.ker`, `LinearMap.range`, `LinearMap.toSpanSingleton`, ... in the files read for `Ideal`, `Matrix`, `Submodule`",
        ],
        complete: false,
        names: &[
            "codRestrict",   // written qualified (`LinearMap.codRestrict`) in Mathlib sources read (Submodule/Map extract)
            "detAux", // LinearAlgebra/Determinant.lean (named by `LinearMap.det`'s definition)
            "domRestrict",   // written qualified (`LinearMap.domRestrict`) in Mathlib sources read (Submodule/Map extract)
            "ker",           // written qualified (`LinearMap.ker`) in Mathlib sources read (RingTheory/Ideal/Span.lean)
            "lsmul",         // written qualified (`LinearMap.lsmul`) in Mathlib sources read (Module.annihilator)
            "proj",          // written qualified (`LinearMap.proj`) in Mathlib sources read (Matrix.detRowAlternating)
            "range",         // written qualified (`LinearMap.range`) in Mathlib sources read (LinearAlgebra/Matrix/Rank.lean)
            "submoduleMap",  // older Algebra/Module/Submodule/Map.lean declaration extract
            "toMatrix",      // written qualified (`LinearMap.toMatrix`) in Mathlib sources read (LinearAlgebra/Trace.lean)
            "toSpanSingleton", // written qualified (`LinearMap.toSpanSingleton`) in Mathlib sources read (RingTheory/Ideal/Span.lean)
            "trace",         // LinearAlgebra/Trace.lean (`#align linear_map.trace`)
        ],
        protected: &[
            // LinearAlgebra/Determinant.lean (`protected irreducible_def det`)
            "det",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Matrix",
        sources: &[
            "Mathlib/LinearAlgebra/Matrix/Determinant/Basic.lean (the `det` definition, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Trace.lean (the `trace` definitions, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Matrix/Rank.lean (the `rank` definition, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "det",               // LinearAlgebra/Matrix/Determinant/Basic.lean (abbrev)
            "detRowAlternating", // LinearAlgebra/Matrix/Determinant/Basic.lean
            "diagonal",      // Data/Matrix/Basic.lean (`#align matrix.diagonal`)
            "of",            // Data/Matrix/Basic.lean (used by `diagonal`'s definition as `of fun i j => …`)
            "rank",          // LinearAlgebra/Matrix/Rank.lean (noncomputable def)
            "trace",             // LinearAlgebra/Matrix/Trace.lean
            "traceAddMonoidHom", // LinearAlgebra/Matrix/Trace.lean
            "traceLinearMap",    // LinearAlgebra/Matrix/Trace.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `volume` is the class field `MeasureTheory.MeasureSpace.volume`, exported into `MeasureTheory`;
        // `∀ᵐ`/`∃ᵐ` are global `notation3`.
        namespace: "MeasureTheory",
        sources: &[
            "Mathlib/MeasureTheory/Function/L1Space.lean (the `Integrable` definition, via indexed excerpts)",
            "Mathlib/MeasureTheory/Measure/MeasureSpaceDef.lean (`MeasureSpace` and `export MeasureSpace (volume)`, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "Integrable", // MeasureTheory/Function/L1Space.lean (`#align measure_theory.integrable`)
            "MeasureSpace",  // MeasureTheory/Measure/MeasureSpaceDef.lean (class)
            "volume",        // MeasureTheory/Measure/MeasureSpaceDef.lean (`export MeasureSpace (volume)` inside `namespace MeasureTheory`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "ENNReal",
        sources: &["Mathlib/Data/ENNReal/Basic.lean (the `toNNReal`/`toReal`/`ofReal` definitions, via indexed excerpts)"],
        complete: false,
        names: &[],
        protected: &[
            // Data/ENNReal/Basic.lean
            "ofReal", "toNNReal", "toReal",
        ],
        scoped_notations: &[
            // Data/ENNReal/Basic.lean: `scoped[ENNReal] notation "ℝ≥0∞" => ENNReal`, `"∞" => (⊤ : ENNReal)`
            ("ℝ≥0∞", "ENNReal"),
            ("∞", "(⊤ : ENNReal)"),
        ],
    },
    NamespaceNames {
        namespace: "Multiset",
        sources: &[
            "Mathlib/Data/Multiset/Basic.lean (the `card` definition, via indexed excerpts)",
            "Mathlib/Data/Finset/Dedup.lean (the `toFinset` definition, via indexed excerpts)",
            "Mathlib/Algebra/BigOperators/Group/Multiset.lean (the `prod`/`sum` definitions, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "card",     // Data/Multiset/Basic.lean (`Multiset α →+ ℕ`)
            "prod",          // Algebra/BigOperators/Group/Multiset.lean (`#align multiset.prod`)
            "sum",           // Algebra/BigOperators/Group/Multiset.lean (additive copy, `#align multiset.sum`)
            "sumAddMonoidHom", // Algebra/BigOperators/Group/Multiset.lean
            "toFinset", // Data/Finset/Dedup.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "List",
        sources: &[
            "src/Init/Data/List/Basic.lean (`length`, via an indexed excerpt of a ported file)",
            "Mathlib/Algebra/BigOperators/Group/List.lean (the `prod`/`sum`/`alternatingSum` definitions, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "alternatingSum", // Algebra/BigOperators/Group/List.lean
            "length",         // Lean core (`List.length`)
            "prod",           // Algebra/BigOperators/Group/List.lean (now in core `List.prod`)
            "sum",            // Algebra/BigOperators/Group/List.lean (additive copy; in Lean core in newer versions)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // The extract drops modifiers other than on the structure fields; some of these (for
        // example `cast`, `decidableEq`, `inhabited`, `unique`, `ulift`, `plift`) may be
        // `protected`. `α ≃ β` is a global infix for `Equiv α β`.
        namespace: "Equiv",
        sources: &["an indexed declaration extract (with `#align equiv.*` lines) of older Mathlib/Logic/Equiv/Defs.lean (whole extract, 12092 characters)"],
        complete: false,
        names: &[
            "Perm",                        // Logic/Equiv/Defs.lean (abbrev)
            "arrowCongr",                  // Logic/Equiv/Defs.lean
            "arrowCongr'",                 // Logic/Equiv/Defs.lean
            "arrowPUnitEquivPUnit",        // Logic/Equiv/Defs.lean
            "arrowPUnitOfIsEmpty",         // Logic/Equiv/Defs.lean
            "cast",                        // Logic/Equiv/Defs.lean
            "conj",                        // Logic/Equiv/Defs.lean
            "decidableEq",                 // Logic/Equiv/Defs.lean
            "emptyArrowEquivPUnit",        // Logic/Equiv/Defs.lean
            "equivCongr",                  // Logic/Equiv/Defs.lean
            "equivEmpty",                  // Logic/Equiv/Defs.lean
            "equivEmptyEquiv",             // Logic/Equiv/Defs.lean
            "equivOfIsEmpty",              // Logic/Equiv/Defs.lean
            "equivOfUnique",               // Logic/Equiv/Defs.lean
            "equivPEmpty",                 // Logic/Equiv/Defs.lean
            "equivPUnit",                  // Logic/Equiv/Defs.lean
            "falseArrowEquivPUnit",        // Logic/Equiv/Defs.lean
            "funUnique",                   // Logic/Equiv/Defs.lean
            "inhabited",                   // Logic/Equiv/Defs.lean
            "ofBijective",                 // Logic/Equiv/Defs.lean
            "ofIff",                       // Logic/Equiv/Defs.lean
            "pemptyArrowEquivPUnit",       // Logic/Equiv/Defs.lean
            "permCongr",                   // Logic/Equiv/Defs.lean
            "piUnique",                    // Logic/Equiv/Defs.lean
            "plift",                       // Logic/Equiv/Defs.lean
            "propEquivBool",               // Logic/Equiv/Defs.lean
            "propEquivPEmpty",             // Logic/Equiv/Defs.lean
            "propEquivPUnit",              // Logic/Equiv/Defs.lean
            "psigmaCongrRight",            // Logic/Equiv/Defs.lean
            "psigmaEquivSigma",            // Logic/Equiv/Defs.lean
            "psigmaEquivSigmaPLift",       // Logic/Equiv/Defs.lean
            "psigmaEquivSubtype",          // Logic/Equiv/Defs.lean
            "punitArrowEquiv",             // Logic/Equiv/Defs.lean
            "punitEquivPUnit",             // Logic/Equiv/Defs.lean
            "refl",                        // Logic/Equiv/Defs.lean
            "sigmaAssoc",                  // Logic/Equiv/Defs.lean
            "sigmaCongr",                  // Logic/Equiv/Defs.lean
            "sigmaCongrLeft",              // Logic/Equiv/Defs.lean
            "sigmaCongrLeft'",             // Logic/Equiv/Defs.lean
            "sigmaCongrRight",             // Logic/Equiv/Defs.lean
            "sigmaEquivProd",              // Logic/Equiv/Defs.lean
            "sigmaEquivProdOfEquiv",       // Logic/Equiv/Defs.lean
            "sigmaPLiftEquivSubtype",      // Logic/Equiv/Defs.lean
            "sigmaULiftPLiftEquivSubtype", // Logic/Equiv/Defs.lean
            "symm",                        // Logic/Equiv/Defs.lean
            "trans",                       // Logic/Equiv/Defs.lean
            "trueArrowEquiv",              // Logic/Equiv/Defs.lean
            "ulift",                       // Logic/Equiv/Defs.lean
            "unique",                      // Logic/Equiv/Defs.lean
        ],
        protected: &[
            // Logic/Equiv/Defs.lean (structure fields)
            "invFun", "left_inv", "right_inv", "toFun",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MonoidHom",
        sources: &["an indexed declaration extract (with `#align monoid_hom.*` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean"],
        complete: false,
        names: &[
            "eqLocus",               // older GroupTheory/Subgroup/Basic.lean
            "ker",                   // older GroupTheory/Subgroup/Basic.lean
            "liftOfRightInverse",    // older GroupTheory/Subgroup/Basic.lean
            "liftOfRightInverseAux", // older GroupTheory/Subgroup/Basic.lean
            "ofInjective",           // older GroupTheory/Subgroup/Basic.lean
            "ofLeftInverse",         // older GroupTheory/Subgroup/Basic.lean
            "range",                 // older GroupTheory/Subgroup/Basic.lean
            "rangeRestrict",         // older GroupTheory/Subgroup/Basic.lean
            "subgroupComap",         // older GroupTheory/Subgroup/Basic.lean
            "subgroupMap",           // older GroupTheory/Subgroup/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "RingHom",
        sources: &["an indexed declaration extract (with `#align ring_hom.*` lines) of older Mathlib/RingTheory/Ideal/Operations.lean"],
        complete: false,
        names: &[
            "eqLocus",       // older Mathlib/RingTheory/Subring/Basic.lean declaration extract (`#align ring_hom.*`)
            "ker",                   // older RingTheory/Ideal/Operations.lean
            "liftOfRightInverse",    // older RingTheory/Ideal/Operations.lean
            "liftOfRightInverseAux", // older RingTheory/Ideal/Operations.lean
            "range",         // older Mathlib/RingTheory/Subring/Basic.lean declaration extract (`#align ring_hom.*`)
            "rangeRestrict", // older Mathlib/RingTheory/Subring/Basic.lean declaration extract (`#align ring_hom.*`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Finsupp",
        sources: &[
            "Mathlib/Data/Finsupp/Defs.lean (the `Finsupp` structure and `→₀` notation, via indexed excerpts)",
            "Mathlib/LinearAlgebra/Finsupp (the `supported`/`restrictDom` definitions, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "indicator",   // Data/Finsupp/Indicator.lean (named in `#align finsupp.support_indicator_subset`)
            "restrictDom", // LinearAlgebra/Finsupp (`#align finsupp.restrict_dom`)
            "single",      // Data/Finsupp/Defs.lean (written `Finsupp.single n 1` by MvPolynomial.X)
            "sum",         // Data/Finsupp (written `Finsupp.sum`; whether it is protected was not checked)
            "support",     // Data/Finsupp/Defs.lean (structure field)
            "supported",   // LinearAlgebra/Finsupp (`#align finsupp.supported`)
            "toFun",       // Data/Finsupp/Defs.lean (structure field)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `∠` is scoped: `open EuclideanGeometry` (or `open scoped EuclideanGeometry`) enables it.
        namespace: "EuclideanGeometry",
        sources: &["Mathlib/Geometry/Euclidean/Angle/Unoriented/Affine.lean (the `angle` definition and `∠` notation, via indexed excerpts)"],
        complete: false,
        names: &[
            "angle", // Geometry/Euclidean/Angle/Unoriented/Affine.lean (`nonrec def`)
        ],
        protected: &[],
        scoped_notations: &[
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
        complete: false,
        names: &[
            "toComplex", // NumberTheory/Zsqrtd/GaussianInt.lean (`ℤ[i] →+* ℂ`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MvPolynomial",
        sources: &["an indexed declaration extract (with `#align mv_polynomial.*` lines) of older Mathlib/Algebra/MvPolynomial/Basic.lean (whole extract, 3907 characters)"],
        complete: false,
        names: &[
            "C",                 // MvPolynomial/Basic.lean
            "X",                 // MvPolynomial/Basic.lean
            "aeval",             // MvPolynomial/Basic.lean
            "aevalTower",        // MvPolynomial/Basic.lean
            "coeff",             // MvPolynomial/Basic.lean
            "coeffAddMonoidHom", // MvPolynomial/Basic.lean
            "constantCoeff",     // MvPolynomial/Basic.lean
            "eval",              // MvPolynomial/Basic.lean
            "eval₂",             // MvPolynomial/Basic.lean
            "eval₂Hom",          // MvPolynomial/Basic.lean
            "map",               // MvPolynomial/Basic.lean
            "mapAlgHom",         // MvPolynomial/Basic.lean
            "monomial",          // MvPolynomial/Basic.lean
            "monomialOneHom",    // MvPolynomial/Basic.lean
            "support",           // MvPolynomial/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `F⟮x⟯` (adjoin notation) was not checked.
        namespace: "IntermediateField",
        sources: &["Mathlib/FieldTheory/IntermediateField/Adjoin (the `adjoin` definition, via indexed excerpts)"],
        complete: false,
        names: &[
            "adjoin", // FieldTheory/IntermediateField/Adjoin (`#align intermediate_field.adjoin`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Subfield",
        sources: &["Mathlib/FieldTheory/IntermediateField/Adjoin (uses `Subfield.closure`, `Subfield.subset_closure`, via indexed excerpts)"],
        complete: false,
        names: &[
            "closure", // Algebra/Field/Subfield (named as `Subfield.closure` in `IntermediateField.adjoin`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // The extract drops modifiers, so a `protected` mark (e.g. on `gi`) would not show.
        namespace: "Subring",
        sources: &["an indexed declaration extract (with `#align subring.*` lines) of older Mathlib/RingTheory/Subring/Basic.lean (whole extract, 6614 characters)"],
        complete: false,
        names: &[
            "center",                // RingTheory/Subring/Basic.lean
            "centralizer",           // RingTheory/Subring/Basic.lean
            "closure",               // RingTheory/Subring/Basic.lean
            "closureCommRingOfComm", // RingTheory/Subring/Basic.lean
            "comap",                 // RingTheory/Subring/Basic.lean
            "copy",                  // RingTheory/Subring/Basic.lean
            "equivMapOfInjective",   // RingTheory/Subring/Basic.lean
            "gi",                    // RingTheory/Subring/Basic.lean
            "inclusion",             // RingTheory/Subring/Basic.lean
            "map",                   // RingTheory/Subring/Basic.lean
            "mk'",                   // RingTheory/Subring/Basic.lean
            "prod",                  // RingTheory/Subring/Basic.lean
            "prodEquiv",             // RingTheory/Subring/Basic.lean
            "subtype",               // RingTheory/Subring/Basic.lean
            "topEquiv",              // RingTheory/Subring/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // Additive copies (`to_additive`) of the `Subgroup` definitions; only those seen are listed.
        namespace: "AddSubgroup",
        sources: &[
            "Mathlib/Algebra/Group/Subgroup/Lattice.lean (first 16000 characters)",
            "an indexed declaration extract (with `#align add_subgroup.*` lines) of an older Mathlib/GroupTheory/Subgroup/Basic.lean",
            "`#align add_subgroup.center`, `add_subgroup.centralizer`, `add_subgroup.index` lines (via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "Characteristic", // older GroupTheory/Subgroup/Basic.lean (structure)
            "IsCommutative",  // older GroupTheory/Subgroup/Basic.lean (structure)
            "IsComplement",  // GroupTheory/Complement.lean (additive copy)
            "IsComplement'", // GroupTheory/Complement.lean (additive copy)
            "Normal",         // older GroupTheory/Subgroup/Basic.lean (structure)
            "center",         // GroupTheory/Subgroup/Center.lean (additive copy)
            "centralizer",    // GroupTheory/Subgroup/Centralizer.lean (additive copy)
            "closure",        // Algebra/Group/Subgroup/Lattice.lean (additive copy)
            "index",          // GroupTheory/Index.lean (additive copy)
            "toSubgroup",     // Algebra/Group/Subgroup/Lattice.lean
            "toSubgroup'",    // Algebra/Group/Subgroup/Lattice.lean (abbrev)
            "topEquiv",       // Algebra/Group/Subgroup/Lattice.lean (additive copy)
        ],
        protected: &[
            // Algebra/Group/Subgroup/Lattice.lean (additive copy of `Subgroup.gi`)
            "gi",
        ],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `α ⧸ s` is the quotient notation (`HasQuotient`, root).
        namespace: "QuotientGroup",
        sources: &["Mathlib/GroupTheory/Coset (the `mk` definition, via indexed excerpts)"],
        complete: false,
        names: &[
            "mk", // GroupTheory/Coset (abbrev, `#align quotient_group.mk`)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `Sylow p G` is a root structure extending `Subgroup G`.
        namespace: "Sylow",
        sources: &["Mathlib/GroupTheory/Sylow.lean (the `Sylow` structure, via indexed excerpts)"],
        complete: false,
        names: &[
            "isPGroup'",    // GroupTheory/Sylow.lean (structure field)
            "is_maximal'",  // GroupTheory/Sylow.lean (structure field)
            "toSubgroup",   // GroupTheory/Sylow.lean (parent projection)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "MulAction",
        sources: &["an indexed declaration extract (with `#align mul_action.*` lines) of older Mathlib/GroupTheory/GroupAction/Basic.lean (whole extract, 5642 characters)"],
        complete: false,
        names: &[
            "fixedBy",                              // GroupTheory/GroupAction/Basic.lean
            "fixedPoints",                          // GroupTheory/GroupAction/Basic.lean
            "orbit",                                // GroupTheory/GroupAction/Basic.lean
            "orbitRel",                             // GroupTheory/GroupAction/Basic.lean
            "selfEquivSigmaOrbits",                 // GroupTheory/GroupAction/Basic.lean
            "selfEquivSigmaOrbits'",                // GroupTheory/GroupAction/Basic.lean
            "stabilizer",                           // GroupTheory/GroupAction/Basic.lean
            "stabilizerEquivStabilizerOfOrbitRel",  // GroupTheory/GroupAction/Basic.lean
            "stabilizerSubmonoid",                  // GroupTheory/GroupAction/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        // `open Equiv.Perm` (or `open Equiv` then `Perm.sign`); `Equiv.Perm` itself is an abbrev.
        namespace: "Equiv.Perm",
        sources: &[
            "Mathlib/GroupTheory/Perm/Sign.lean (the `sign` definition, via indexed excerpts)",
            "Mathlib/GroupTheory/Perm/Cycle/Type.lean (the `cycleType` definition, via indexed excerpts)",
        ],
        complete: false,
        names: &[
            "cycleType", // GroupTheory/Perm/Cycle/Type.lean
            "sigmaCongrRight", // Logic/Equiv/Defs.lean (`#align equiv.perm.sigma_congr_right`)
            "sign",      // GroupTheory/Perm/Sign.lean (`Perm α →* ℤˣ`)
            "signAux3",  // GroupTheory/Perm/Sign.lean (named by `sign`'s definition)
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Cardinal",
        sources: &[
            "Mathlib/SetTheory/Cardinal/Basic.lean (the `mk` definition and `#` notation, via indexed excerpts)",
            "an indexed declaration extract (with `#align cardinal.*` lines) of older Mathlib/SetTheory/Cardinal/Basic.lean (whole extract, 2807 characters)",
        ],
        complete: false,
        names: &[
            "IsLimit",            // SetTheory/Cardinal/Basic.lean (older)
            "aleph0",             // SetTheory/Cardinal/Basic.lean
            "gciOrdCard",    // SetTheory/Cardinal/Ordinal (older extract, `#align cardinal.gci_ord_card`)
            "lift",               // SetTheory/Cardinal/Basic.lean
            "liftOrderEmbedding", // SetTheory/Cardinal/Basic.lean
            "map",                // SetTheory/Cardinal/Basic.lean
            "map₂",               // SetTheory/Cardinal/Basic.lean
            "mk",                 // SetTheory/Cardinal/Basic.lean
            "ord",           // SetTheory/Cardinal/Ordinal (older extract, `#align cardinal.ord`)
            "outMkEquiv",         // SetTheory/Cardinal/Basic.lean
            "powerlt",            // SetTheory/Cardinal/Basic.lean
            "prod",               // SetTheory/Cardinal/Basic.lean
            "sum",                // SetTheory/Cardinal/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[
            // SetTheory/Cardinal/Basic.lean: `scoped prefix:max "#" => Cardinal.mk`
            ("#", "Cardinal.mk"),
            // SetTheory/Cardinal/Basic.lean: `scoped notation "ℵ₀" => Cardinal.aleph0`
            ("ℵ₀", "Cardinal.aleph0"),
        ],
    },
    NamespaceNames {
        namespace: "Ordinal",
        sources: &["an indexed declaration extract (with `#align ordinal.*` lines) of older Mathlib/SetTheory/Ordinal/Basic.lean (whole extract, 6818 characters)"],
        complete: false,
        names: &[
            "card",              // SetTheory/Ordinal/Basic.lean
            "enum",              // SetTheory/Ordinal/Basic.lean
            "enumIso",           // SetTheory/Ordinal/Basic.lean
            "enumIsoOut",        // SetTheory/Ordinal/Basic.lean
            "initialSegOut",     // SetTheory/Ordinal/Basic.lean
            "lift",              // SetTheory/Ordinal/Basic.lean
            "omega",             // SetTheory/Ordinal/Basic.lean (older; later renamed)
            "outOrderBotOfPos",  // SetTheory/Ordinal/Basic.lean
            "principalSegOut",   // SetTheory/Ordinal/Basic.lean
            "type",              // SetTheory/Ordinal/Basic.lean
            "typein",            // SetTheory/Ordinal/Basic.lean
            "univ",              // SetTheory/Ordinal/Basic.lean
        ],
        protected: &[],
        scoped_notations: &[],
    },
    NamespaceNames {
        namespace: "Relation",
        sources: &["Mathlib/Logic/Relation.lean (module doc and first 16000 characters)"],
        complete: false,
        names: &[
            "ChurchRosser", // Logic/Relation.lean (module doc)
            "Comp",         // Logic/Relation.lean
            "Confluent",    // Logic/Relation.lean (module doc)
            "Diamond",      // Logic/Relation.lean (module doc)
            "EqvGen",       // Logic/Relation.lean
            "Fibration",    // Logic/Relation.lean
            "Join",         // Logic/Relation.lean (module doc)
            "ReflGen",      // Logic/Relation.lean
            "ReflTransGen", // Logic/Relation.lean
            "SymmGen",      // Logic/Relation.lean
            "TransGen",     // Lean core (`attribute [mk_iff] TransGen` in Logic/Relation.lean)
        ],
        protected: &[
            // Logic/Relation.lean: `protected def Map`
            "Map",
        ],
        scoped_notations: &[],
    },
];

/// Short names statements write that these namespaces hold, or may hold, beyond the files read
/// above (a hand list kept from before the table, Mathlib's names as statements use them). A
/// name here is a *possible* reading: it makes a short name ambiguous, and never resolves one.
pub const POSSIBLY_HELD: &[(&str, &[&str])] = &[
    (
        "",
        &[
            "closure", "interior", "frontier", "deriv", "abs", "max", "min", "id", "gcd", "lcm",
            "span", "dist",
        ],
    ),
    (
        "Nat",
        &[
            "sqrt",
            "log",
            "factorial",
            "choose",
            "gcd",
            "lcm",
            "succ",
            "pred",
            "digits",
            "divisors",
            "properDivisors",
            "primeFactors",
            "primeFactorsList",
            "factors",
            "Prime",
            "Coprime",
            "totient",
            "fib",
            "floor",
            "ceil",
            "cast",
            "card",
            "dist",
            "find",
            "min",
            "max",
            "pow",
            "add",
            "sub",
            "mul",
            "div",
            "mod",
            "ModEq",
            "sum",
            "count",
            "nth",
            "clog",
            "size",
            "descFactorial",
            "ascFactorial",
            "Even",
            "Odd",
            "le",
            "lt",
            "ofNat",
            "toFinset",
            "range",
            "Perfect",
            "Primes",
            "sInf",
            "sSup",
            "iterate",
        ],
    ),
    (
        "Real",
        &[
            "sqrt",
            "exp",
            "log",
            "logb",
            "cos",
            "sin",
            "tan",
            "cot",
            "arctan",
            "arcsin",
            "arccos",
            "cosh",
            "sinh",
            "tanh",
            "pi",
            "rpow",
            "nnabs",
            "toNNReal",
            "sign",
            "goldenRatio",
            "cast",
            "sInf",
            "sSup",
            "iInf",
            "iSup",
        ],
    ),
    (
        "Rat",
        &[
            "num",
            "den",
            "floor",
            "ceil",
            "cast",
            "sqrt",
            "divInt",
            "add",
            "mul",
            "inv",
            "sub",
            "div",
            "normalize",
            "ofInt",
            "le",
            "lt",
        ],
    ),
    (
        "Int",
        &[
            "floor", "ceil", "fract", "natAbs", "toNat", "gcd", "lcm", "sqrt", "log", "emod",
            "ediv", "sign", "cast", "ModEq", "Prime", "Even", "Odd", "negSucc", "ofNat", "div",
            "mod", "fdiv", "fmod", "add", "sub", "mul", "pow", "le", "lt", "natMod",
        ],
    ),
    (
        "Complex",
        &[
            "exp",
            "log",
            "abs",
            "re",
            "im",
            "I",
            "cos",
            "sin",
            "tan",
            "cpow",
            "arg",
            "ofReal",
            "normSq",
            "cosh",
            "sinh",
            "conj",
            "cast",
            "sqrt",
            "equivRealProd",
        ],
    ),
    (
        "Finset",
        &[
            "card", "sum", "prod", "range", "filter", "image", "Icc", "Ico", "Ioc", "Ioo",
            "Nonempty", "max", "min", "sup", "inf", "map", "univ", "powerset", "erase", "insert",
            "biUnion", "product", "Iic", "Iio", "Ici", "Ioi",
        ],
    ),
    (
        "Fintype",
        &["card", "elems", "ofFinset", "ofList", "ofEquiv", "complete"],
    ),
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
