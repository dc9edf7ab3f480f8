import { readFile } from 'node:fs/promises';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints, for a failed test, the page as Playwright saw it at the failure (the `error-context`
 * attachment: the page's ARIA snapshot). A CI run keeps only its log, and a failure that does not
 * come back on this machine is otherwise known by its assertion alone (CI, session 23: a progress
 * bar "not found", with nothing to say what the section showed instead).
 */
export default class FailureContextReporter implements Reporter {
  private readonly printing: Promise<void>[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status === 'passed' || result.status === 'skipped') return;
    const context = result.attachments.find((a) => a.name === 'error-context' && a.path);
    if (!context?.path) return;
    this.printing.push(
      readFile(context.path, 'utf8').then(
        (text) => {
          const snapshot = pageSnapshot(text);
          if (!snapshot) return;
          process.stdout.write(
            `\n── the page at the failure of “${test.title}”\n${snapshot}\n──\n`,
          );
        },
        () => undefined,
      ),
    );
  }

  async onEnd(): Promise<void> {
    await Promise.all(this.printing);
  }

  printsToStdio(): boolean {
    return false;
  }
}

/** The page's ARIA snapshot in the error context (a YAML block; the rest repeats the error and source). */
function pageSnapshot(markdown: string): string | undefined {
  return /```yaml\n([\s\S]*?)```/.exec(markdown)?.[1]?.trimEnd();
}
