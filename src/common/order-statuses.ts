// An order's statuses, as the server stores them and the orders screen filters by them.
export const ORDER_STATUSES = ['completed', 'pending', 'refunded', 'failed', 'expired'] as const;
