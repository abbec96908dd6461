/** Whether process `pid` is alive (signal 0: checked, nothing sent). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
