import type * as React from 'react';

/** The narrow centred column of the sign-in and account-recovery pages. */
export const Centered = ({ children }: { children: React.ReactNode }) => (
  <section className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 py-10">
    {children}
  </section>
);
