//! `lean_assess._native`: the Python binding's one entry point into the library.
//!
//! The work is the command line's own: [`lean_assess::cli::json_document`] runs `score` or
//! `bench` with `--json` exactly as `lean-assess` does and hands back the document it prints, so
//! Python gets the CLI's JSON and the CLI's error messages. The GIL is released while it runs
//! (a bench or a Lean metric can take minutes; other Python threads go on). The Python side
//! (`python/lean_assess/__init__.py`) turns keyword arguments into the command's flags and the
//! text into a dict.

use pyo3::prelude::*;

pyo3::create_exception!(
    lean_assess,
    Error,
    pyo3::exceptions::PyException,
    "A run lean-assess refused or could not do: bad input or usage, with the CLI's message."
);

/// Run `lean-assess ARGS... --json` (`args[0]` is `score` or `bench`) and return
/// `(document, stderr)`: the JSON text the command prints and what it wrote to stderr
/// (warnings, progress). Raises `lean_assess.Error` with the CLI's message where the command
/// line would exit with status 2.
#[pyfunction]
fn run_json(py: Python<'_>, args: Vec<String>) -> PyResult<(String, String)> {
    let outcome = py.detach(move || {
        let mut err = Vec::new();
        let result = lean_assess::cli::json_document(&args, &mut err);
        (result.map(|(document, _status)| document.to_string()), err)
    });
    match outcome {
        (Ok(document), err) => Ok((document, String::from_utf8_lossy(&err).into_owned())),
        (Err(e), _) => Err(Error::new_err(lean_assess::cli::error_message(&e))),
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add("Error", m.py().get_type::<Error>())?;
    Ok(())
}
