// Why: barrel of the GitHub webhook entry point (review rules and outcome signals).
export * from './delivery.js';
export * from './handle-webhook.js';
export * from './http-response.js';
export * from './review-comments.js';
export * from './route-event.js';
export { type VerifiedWebhookDelivery, verifyGitHubWebhook, type WebhookVerification } from './verify-delivery.js';
