//! A Windows Job Object that holds one brain and everything it starts.
//!
//! Windows has no process groups to signal: a brain started through a wrapper (a batch file,
//! `cmd /c`, a launcher) would leave its real engine running when the match runner kills the
//! wrapper. A Job Object is the platform's way to treat a process tree as one: the brain is
//! put into a job right after it starts, the processes it creates join the same job, and
//! [`Job::terminate`] (or closing the job's last handle, thanks to
//! `JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE`) ends all of them. Jobs nest from Windows 8 on, so
//! this works even when the match runner itself runs inside a job (a CI service, a terminal).

use std::io;
use std::os::windows::io::AsRawHandle;
use std::process::Child;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JobObjectBasicAccountingInformation,
    JobObjectExtendedLimitInformation, QueryInformationJobObject, SetInformationJobObject,
    TerminateJobObject, JOBOBJECT_BASIC_ACCOUNTING_INFORMATION,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
};

/// An anonymous job that kills its processes when it is dropped.
pub struct Job {
    handle: HANDLE,
}

// SAFETY: a job handle may be used from any thread; `Job` owns it alone.
unsafe impl Send for Job {}

impl Job {
    /// A new job holding `child` (and, from now on, every process `child` starts).
    pub fn holding(child: &Child) -> io::Result<Job> {
        // SAFETY: plain Win32 calls; every pointer is to a live local, and the handle is
        // closed by `Drop` whatever happens after its creation.
        unsafe {
            let handle = CreateJobObjectW(std::ptr::null(), std::ptr::null());
            if handle.is_null() {
                return Err(io::Error::last_os_error());
            }
            let job = Job { handle };
            let mut limits = JOBOBJECT_EXTENDED_LIMIT_INFORMATION::default();
            limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            if SetInformationJobObject(
                job.handle,
                JobObjectExtendedLimitInformation,
                (&limits as *const JOBOBJECT_EXTENDED_LIMIT_INFORMATION).cast(),
                std::mem::size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
            ) == 0
            {
                return Err(io::Error::last_os_error());
            }
            if AssignProcessToJobObject(job.handle, child.as_raw_handle() as HANDLE) == 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(job)
        }
    }

    /// Ends every process of the job at once.
    pub fn terminate(&self) {
        // SAFETY: the handle is a live job handle owned by `self`.
        unsafe {
            TerminateJobObject(self.handle, 1);
        }
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by `self` and closed once; with
        // JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE this also ends what is left in the job.
        unsafe {
            CloseHandle(self.handle);
        }
    }
}

impl Job {
    /// How many processes are in the job now (exited ones are not counted).
    pub fn active_processes(&self) -> io::Result<u32> {
        let mut info = JOBOBJECT_BASIC_ACCOUNTING_INFORMATION::default();
        // SAFETY: `info` is a live local of the size passed.
        let ok = unsafe {
            QueryInformationJobObject(
                self.handle,
                JobObjectBasicAccountingInformation,
                (&mut info as *mut JOBOBJECT_BASIC_ACCOUNTING_INFORMATION).cast(),
                std::mem::size_of::<JOBOBJECT_BASIC_ACCOUNTING_INFORMATION>() as u32,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(info.ActiveProcesses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    fn wait_for(what: impl Fn() -> bool) -> bool {
        let until = Instant::now() + Duration::from_secs(10);
        while Instant::now() < until {
            if what() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }

    #[test]
    fn terminating_the_job_ends_the_grandchildren_too() {
        // cmd starts ping as its own child: the grandchild a wrapper would leave behind.
        let mut child = Command::new("cmd")
            .args(["/c", "ping -n 60 127.0.0.1 >NUL"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .spawn()
            .expect("cmd starts");
        let job = Job::holding(&child).expect("a job holds the child");
        assert!(
            wait_for(|| job.active_processes().unwrap() == 2),
            "cmd and ping both in the job"
        );
        job.terminate();
        assert!(
            wait_for(|| job.active_processes().unwrap() == 0),
            "nothing left running"
        );
        child.wait().expect("the child is reaped");
    }
}
