import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useDispatch } from 'react-redux';

/** `dispatch` that takes RTK Query's thunks (features do not import the app's store types). */
export const useThunkDispatch = () => useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
