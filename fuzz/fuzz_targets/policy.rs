//! The policy language: any text through `check` and `expand`; a valid policy's explicit form
//! reads back as the same policy.
#![no_main]
use libfuzzer_sys::fuzz_target;
use policy_playground::{api, policy};
use policy_playground_fuzz::{check_positions, text};

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let checked = policy::check_text(text);
    check_positions(Some(text), &checked.diagnostics);
    if let Some(policies) = checked.policies() {
        for p in &policies {
            let explicit = policy::expand::to_json(p).to_string();
            let (again, warnings) = policy::policy_from_text(&explicit)
                .unwrap_or_else(|e| panic!("the explicit form {explicit} does not read: {e:#?}"));
            assert_eq!(&again, p, "{explicit} reads as another policy");
            let _ = warnings;
            let _ = p.describe();
        }
    }
    match policy::policy_from_text(text) {
        Ok((_, ws)) => check_positions(Some(text), &ws),
        Err(ds) => check_positions(Some(text), &ds),
    }
    let answer = api::check_json_str(text);
    assert!(!answer.contains("internal error"), "{answer}");
    let answer = api::expand_json_str(text);
    assert!(!answer.contains("internal error"), "{answer}");
});
