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
//! Private declarations and declarations in `Mathlib.Meta`/tactic namespaces are omitted.

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
    // Mathlib/Data/Complex/Basic.lean: `notation "ℂ" => Complex`, `infixl:72 " ×ℂ " => Set.reProdIm`
    ("ℂ", "Complex"),
    ("×ℂ", "Complex.Set.reProdIm"),
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
            "all",             // src/Init/Data/Nat/Basic.lean
            "allTR",           // src/Init/Data/Nat/Basic.lean
            "any",             // src/Init/Data/Nat/Basic.lean
            "anyTR",           // src/Init/Data/Nat/Basic.lean
            "ascFactorial",    // Mathlib/Data/Nat/Factorial/Basic.lean
            "beq",             // src/Init/Prelude.lean
            "ble",             // src/Init/Prelude.lean
            "blt",             // src/Init/Data/Nat/Basic.lean
            "choose",          // Mathlib/Data/Nat/Choose/Basic.lean
            "clog",            // Mathlib/Data/Nat/Log.lean
            "decidablePrime'", // Mathlib/Data/Nat/Prime/Defs.lean
            "descFactorial",   // Mathlib/Data/Nat/Factorial/Basic.lean
            "factorial",       // Mathlib/Data/Nat/Factorial/Basic.lean
            "fastFib",         // Mathlib/Data/Nat/Fib/Basic.lean
            "fastFibAux",      // Mathlib/Data/Nat/Fib/Basic.lean
            "fast_choose",     // Mathlib/Data/Nat/Choose/Basic.lean
            "fib",             // Mathlib/Data/Nat/Fib/Basic.lean
            "fold",            // src/Init/Data/Nat/Basic.lean
            "foldRev",         // src/Init/Data/Nat/Basic.lean
            "foldTR",          // src/Init/Data/Nat/Basic.lean
            "gcd",             // src/Init/Data/Nat/Gcd.lean
            "log",             // Mathlib/Data/Nat/Log.lean
            "log2",            // src/Init/Data/Nat/Log2.lean
            "logC",            // Mathlib/Data/Nat/Log.lean
            "ceil",            // Mathlib/Algebra/Order/Floor/Defs.lean
            "floor",           // Mathlib/Algebra/Order/Floor/Defs.lean
            "ModEq",           // Mathlib/Data/Nat/ModEq.lean
            "minFac",          // Mathlib/Data/Nat/Prime/Defs.lean
            "minFacAux",       // Mathlib/Data/Nat/Prime/Defs.lean
            "multichoose",     // Mathlib/Data/Nat/Choose/Basic.lean
            "pred",            // src/Init/Prelude.lean
            "prod_dvd_and_dvd_of_dvd_prod", // src/Init/Data/Nat/Gcd.lean
            "Prime",           // Mathlib/Data/Nat/Prime/Defs.lean
            "Primes",          // Mathlib/Data/Nat/Prime/Defs.lean
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
            "ModEq",       // Mathlib/Data/Int/ModEq.lean
            "natAbs",      // src/Init/Data/Int/Basic.lean
            "negOfNat",    // src/Init/Data/Int/Basic.lean
            "negSucc",     // src/Init/Data/Int/Basic.lean (constructor)
            "NonNeg",      // src/Init/Data/Int/Basic.lean
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
];
