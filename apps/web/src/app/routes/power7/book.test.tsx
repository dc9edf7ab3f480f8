import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BookSellBody, BookView } from '@pa/contracts/power7-books';
import { routes } from '../../router';
import { failEnvelope, okEnvelope, server } from '@/testing/msw';
import { answerVerify, POWER7, power7User, signedInAs } from '@/testing/power7';
import { renderApp } from '@/testing/render';

/**
 * The live book's terminal against a fake Power 7 service (MSW): the real routes, store and request
 * layer. The browser spec (e2e/power7-books.spec.ts) drives the same screens against the real one.
 */

const userDetails = power7User();
const signedIn = signedInAs(userDetails);

const BOOK: BookView = {
  _id: 'b1',
  name: 'week.csv under 1,000',
  session: 's1',
  pool: 35,
  payouts: { 3: 1, 4: 10, 5: 100, 6: 1000, 7: 100_000 },
  currency: 'EUR',
  limit: 1000,
  status: 'open',
  tickets: 12,
  sold: 0,
  refused: 0,
  worst: { combo: '1-2-3-4-5-6-7', totalPayout: 400 },
  headroom: 600,
  createdAt: '2026-11-29T05:00:00.000Z',
  closedAt: null,
};

const emptySales = { items: [], page: 1, pageSize: 10, total: 0, totalPages: 0 };

let bodies: BookSellBody[];

beforeEach(() => {
  bodies = [];
  answerVerify(() => userDetails);
  vi.spyOn(console, 'error').mockImplementation(() => {});
  server.use(
    http.get(`${POWER7}/power7/books/b1/`, () => HttpResponse.json(okEnvelope(BOOK))),
    http.get(`${POWER7}/power7/books/b1/sales/`, () => HttpResponse.json(okEnvelope(emptySales))),
  );
});

const box = () => screen.getByLabelText('Tickets, one per line');

describe('live book terminal', () => {
  it('focuses the box, checks with Ctrl+Enter and sells with Ctrl+Shift+Enter, each with a fresh requestId', async () => {
    server.use(
      http.post(`${POWER7}/power7/books/b1/tickets/`, async ({ request }) => {
        const body = (await request.json()) as BookSellBody;
        bodies.push(body);
        const results = body.tickets.map((t) =>
          t.numbers.includes(7)
            ? { accepted: false, draw: '1-2-3-4-5-6-7', wouldBe: 1_400 }
            : { accepted: true },
        );
        const sold = body.dryRun ? 0 : results.filter((r) => r.accepted).length;
        return HttpResponse.json(
          okEnvelope({
            ...BOOK,
            tickets: BOOK.tickets + sold,
            sold,
            refused: body.dryRun ? 0 : results.length - sold,
            results,
            dryRun: body.dryRun ?? false,
          }),
        );
      }),
    );
    renderApp(routes, '/app/power7/books/b1', signedIn);
    await waitFor(() => expect(box()).toHaveFocus());
    expect(screen.getByRole('meter', { name: 'Limit used by the worst draw' })).toHaveAttribute(
      'aria-valuenow',
      '40',
    );

    await userEvent.type(box(), '1 2 3 4 5 6 8; C1; Ana{enter}1-2-3-4-5-6-7{enter}');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    const summary = screen.getByTestId('power7-book-summary');
    await waitFor(() =>
      expect(summary).toHaveTextContent(
        'Checked 2 tickets: 1 would be accepted, 1 refused. Nothing was sold.',
      ),
    );
    expect(summary).toHaveAttribute('aria-live', 'polite');
    expect(bodies[0]).toMatchObject({
      dryRun: true,
      tickets: [
        { numbers: [1, 2, 3, 4, 5, 6, 8], customerId: 'C1', name: 'Ana' },
        { numbers: [1, 2, 3, 4, 5, 6, 7] },
      ],
    });
    const answers = screen.getAllByTestId('power7-book-answer');
    expect(answers[0]).toHaveTextContent('Fits: it can be sold.');
    expect(answers[1]).toHaveTextContent(
      'Refused: draw 1-2-3-4-5-6-7 would pay €1,400.00, over the €1,000.00 limit.',
    );
    expect(within(answers[1]!).getByRole('link')).toHaveAttribute(
      'href',
      '/app/power7/results?session=s1&combo=1-2-3-4-5-6-7&match=7',
    );
    // a check keeps the box as it was
    expect(box()).toHaveValue('1 2 3 4 5 6 8; C1; Ana\n1-2-3-4-5-6-7\n');

    await userEvent.keyboard('{Control>}{Shift>}{Enter}{/Shift}{/Control}');
    await waitFor(() => expect(summary).toHaveTextContent('Sold 1 of 2 tickets; 1 refused.'));
    expect(bodies[1]?.dryRun).toBe(false);
    expect(bodies[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodies[1]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(bodies[1]?.requestId).not.toBe(bodies[0]?.requestId);
    // what was not sold stays in the box, and the book's figures follow the answer
    expect(box()).toHaveValue('1-2-3-4-5-6-7');
    expect(box()).toHaveFocus();
    expect(screen.getByText('Sold here').nextSibling).toHaveTextContent('1');
  });

  it('names every bad line before sending, and the line of a ticket the service refuses (400)', async () => {
    server.use(
      http.post(`${POWER7}/power7/books/b1/tickets/`, async ({ request }) => {
        bodies.push((await request.json()) as BookSellBody);
        return HttpResponse.json(
          {
            ...failEnvelope(400, 'VALIDATION_ERROR', 'Some tickets are not valid.'),
            errors: [
              {
                field: 'tickets.1.numbers',
                message: '35 is not in this game’s pool.',
                code: 'invalid',
              },
            ],
          },
          { status: 400 },
        );
      }),
    );
    renderApp(routes, '/app/power7/books/b1', signedIn);
    await waitFor(() => expect(box()).toHaveFocus());
    await userEvent.type(box(), '1 2 3{enter}1 2 3 4 5 6 99');
    await userEvent.click(screen.getByRole('button', { name: /^Check/ }));
    const errors = screen.getByTestId('power7-book-line-errors');
    expect(errors).toHaveTextContent('Nothing was sent: 2 lines need fixing.');
    expect(errors).toHaveTextContent('Line 1: 3 numbers: a ticket has exactly 7.');
    expect(errors).toHaveTextContent('Line 2: 99 is not in the pool (1 to 35).');
    expect(box()).toHaveAttribute('aria-invalid', 'true');
    expect(bodies).toHaveLength(0);

    await userEvent.clear(box());
    await userEvent.type(box(), '1 2 3 4 5 6 8{enter}{enter}1 2 3 4 5 6 35');
    await userEvent.click(screen.getByRole('button', { name: /^Sell/ }));
    await waitFor(() =>
      expect(screen.getByTestId('power7-book-line-errors')).toHaveTextContent(
        'Line 3: 35 is not in this game’s pool.',
      ),
    );
    expect(bodies).toHaveLength(1);
    expect(box()).toHaveValue('1 2 3 4 5 6 8\n\n1 2 3 4 5 6 35');
  });

  it('repeats the key of a sale that got no answer when the same tickets are sold again, and only then', async () => {
    let calls = 0;
    server.use(
      http.post(`${POWER7}/power7/books/b1/tickets/`, async ({ request }) => {
        const body = (await request.json()) as BookSellBody;
        bodies.push(body);
        calls += 1;
        // the first sale's answer is lost on the way back
        if (calls === 1) return HttpResponse.error();
        const results = body.tickets.map(() => ({ accepted: true }));
        return HttpResponse.json(
          okEnvelope({ ...BOOK, sold: 1, results, dryRun: body.dryRun ?? false }),
        );
      }),
    );
    renderApp(routes, '/app/power7/books/b1', signedIn);
    await waitFor(() => expect(box()).toHaveFocus());
    await userEvent.type(box(), '1 2 3 4 5 6 8');
    await userEvent.click(screen.getByRole('button', { name: /^Sell/ }));
    expect(
      await screen.findByText(/The tickets may or may not have been sold: press Sell again/),
    ).toBeInTheDocument();
    expect(box()).toHaveValue('1 2 3 4 5 6 8');
    // a check in between has its own key and does not forget the lost sale's
    await userEvent.click(screen.getByRole('button', { name: /^Check/ }));
    await screen.findByText('Checked 1 ticket: it fits. Nothing was sold.');
    await userEvent.click(screen.getByRole('button', { name: /^Sell/ }));
    await screen.findByText('Sold the ticket.');
    expect(bodies.map((b) => b.dryRun)).toEqual([false, true, false]);
    expect(bodies[2]?.requestId).toBe(bodies[0]?.requestId);
    expect(bodies[1]?.requestId).not.toBe(bodies[0]?.requestId);
    // answered: the next sale has a key of its own
    await userEvent.type(box(), '1 2 3 4 5 6 9');
    await userEvent.click(screen.getByRole('button', { name: /^Sell/ }));
    await waitFor(() => expect(bodies).toHaveLength(4));
    expect(bodies[3]?.requestId).not.toBe(bodies[0]?.requestId);
  });

  it('shows the book closed when a sale finds it closed (409)', async () => {
    let closed = false;
    server.use(
      http.get(`${POWER7}/power7/books/b1/`, () =>
        HttpResponse.json(
          okEnvelope(
            closed ? { ...BOOK, status: 'closed', closedAt: '2026-11-29T05:10:00.000Z' } : BOOK,
          ),
        ),
      ),
      http.post(`${POWER7}/power7/books/b1/tickets/`, () => {
        closed = true;
        return HttpResponse.json(failEnvelope(409, 'CONFLICT', 'This book is closed.'), {
          status: 409,
        });
      }),
    );
    renderApp(routes, '/app/power7/books/b1', signedIn);
    await waitFor(() => expect(box()).toHaveFocus());
    await userEvent.type(box(), '1 2 3 4 5 6 8');
    await userEvent.click(screen.getByRole('button', { name: /^Sell/ }));
    expect(await screen.findByTestId('power7-book-closed')).toHaveTextContent(
      'This book is closed',
    );
    expect(screen.queryByLabelText('Tickets, one per line')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Close the book/ })).not.toBeInTheDocument();
  });

  it('tells a user without power7.run what is missing, on the book and the list, and asks nothing', async () => {
    const asked = vi.fn();
    const details = power7User([]);
    answerVerify(() => details);
    server.use(http.all(`${POWER7}/power7/books/*`, () => void asked()));
    const noRun = signedInAs(details);
    const first = renderApp(routes, '/app/power7/books/b1', noRun);
    expect(await screen.findByTestId('power7-forbidden')).toHaveTextContent(
      'You cannot use live books',
    );
    first.unmount();
    renderApp(routes, '/app/power7/books', noRun);
    expect(await screen.findByTestId('power7-forbidden')).toHaveTextContent('power7.run');
    expect(screen.queryByRole('link', { name: 'Live books' })).not.toBeInTheDocument();
    expect(asked).not.toHaveBeenCalled();
  });

  it('says a missing book was not found (404) and links to the list', async () => {
    server.use(
      http.get(`${POWER7}/power7/books/nope/`, () =>
        HttpResponse.json(failEnvelope(404, 'NOT_FOUND', 'Book not found.'), { status: 404 }),
      ),
    );
    renderApp(routes, '/app/power7/books/nope', signedIn);
    const card = await screen.findByTestId('power7-book-not-found');
    expect(card).toHaveTextContent('This live book was not found');
    expect(within(card).getByRole('link', { name: 'Go to your live books' })).toHaveAttribute(
      'href',
      '/app/power7/books',
    );
  });
});
