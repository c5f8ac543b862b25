//! The silent panic hook runs in its own test binary: a global hook must not silence the failure
//! messages of unrelated unit tests running in parallel.

use tianyuan::protocol::output::{install_silent_panic_hook, take_last_panic};

#[test]
fn silent_panic_hook_records_message() {
    install_silent_panic_hook();
    assert_eq!(take_last_panic(), None);
    let r = std::panic::catch_unwind(|| panic!("boom {}", 42));
    assert!(r.is_err());
    let msg = take_last_panic().unwrap_or_default();
    assert!(msg.starts_with("boom 42 at "), "{msg}");
    assert!(msg.contains("panic_hook.rs"), "{msg}");
    assert_eq!(take_last_panic(), None, "taken once");
    let r = std::panic::catch_unwind(|| std::panic::panic_any(7_u32));
    assert!(r.is_err());
    assert!(take_last_panic().is_some_and(|m| m.starts_with("panic at ")));
}
