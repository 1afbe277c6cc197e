import { Navigate, Route, Routes } from 'react-router';
import SignInPage from '../auth/SignInPage.js';
import SignUpPage from '../auth/SignUpPage.js';
import { GuestOnly, RequireAuth } from './route-guards.js';

/**
 * Routes (DESIGN.md): /login, /signup, /sheets/:sheetId? with ?tab=data|git,
 * /settings. The signed-in routes share one layout so switching between them
 * keeps the sidebar, header and loaded remotes mounted.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route
        path="/login"
        element={
          <GuestOnly>
            <SignInPage />
          </GuestOnly>
        }
      />
      <Route
        path="/signup"
        element={
          <GuestOnly>
            <SignUpPage />
          </GuestOnly>
        }
      />
      <Route element={<RequireAuth />}>
        <Route path="/sheets/:sheetId?" element={null} />
        <Route path="/settings" element={null} />
      </Route>
      <Route path="*" element={<Navigate to="/sheets" replace />} />
    </Routes>
  );
}
