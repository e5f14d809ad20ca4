/**
 * Whether a logout is under way. While it is, the route guards decide nothing: the page being
 * left must not send the user to log in (or to the past-due page) on its way to the homepage.
 */
export class SignOutFlag {
  private value = false;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): boolean => this.value;

  set(value: boolean): void {
    if (this.value === value) return;
    this.value = value;
    for (const listener of this.listeners) listener();
  }
}
